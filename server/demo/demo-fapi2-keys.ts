import crypto, { type webcrypto } from 'node:crypto';
import type { JWK } from 'jose';
import type { CryptoKey, CryptoKeyPair } from 'oauth4webapi';
import * as oidc from 'openid-client';
import type { SecretBox } from '../crypto/secret-box.ts';

/** The fapi2 demo client's key ids: the signing key its client assertions name, and its DPoP key. */
export const DEMO_FAPI2_KID = 'demo-payments-1';

/** A P-256 key pair as JWKs, derived from 32 secret bytes (the private scalar; a value past the curve order is ~2^-32 likely). */
function p256FromSecret(secret: Buffer): { privateJwk: JWK; publicJwk: JWK } {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.setPrivateKey(secret);
  const point = ecdh.getPublicKey();
  const publicJwk: JWK = { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') };
  return { publicJwk, privateJwk: { ...publicJwk, d: secret.toString('base64url') } };
}

/**
 * The fapi2 demo client's keys, derived from the master key: every server process (and the seed, which registers
 * the public half) gets the same ones, and none is ever written anywhere. The signing key makes private_key_jwt
 * assertions; the DPoP key binds the demo's tokens.
 */
export function demoFapi2Keys(box: SecretBox): { signing: { privateJwk: JWK; publicJwk: JWK }; dpop: { privateJwk: JWK; publicJwk: JWK } } {
  return { signing: p256FromSecret(box.derive('demo-fapi2-signing')), dpop: p256FromSecret(box.derive('demo-fapi2-dpop')) };
}

/** The JWK Set the operator registers for the fapi2 demo client (`sso client add --jwks`): its public signing key. */
export function demoFapi2Jwks(box: SecretBox): string {
  return JSON.stringify({ keys: [{ ...demoFapi2Keys(box).signing.publicJwk, kid: DEMO_FAPI2_KID, alg: 'ES256', use: 'sig' }] });
}

/** Imports a derived JWK as a WebCrypto ECDSA P-256 key, as openid-client takes keys: private keys stay unexportable, public ones go into DPoP proofs. */
export async function importDemoKey(jwk: JWK, use: 'sign' | 'verify'): Promise<CryptoKey> {
  // WebCrypto's key is the one oauth4webapi names CryptoKey; Node's type declarations spell them apart.
  return (await crypto.subtle.importKey('jwk', jwk as webcrypto.JsonWebKey, { name: 'ECDSA', namedCurve: 'P-256' }, use === 'verify', [use])) as unknown as CryptoKey;
}

/** The fapi2 demo client's keys as openid-client takes them: the signing key (with its kid) and the DPoP key pair. */
export interface DemoFapi2Keys {
  signingKey: { key: CryptoKey; kid: string };
  dpopKeys: CryptoKeyPair;
}

/** Imports the derived keys for the demo app. */
export async function importDemoFapi2Keys(box: SecretBox): Promise<DemoFapi2Keys> {
  const keys = demoFapi2Keys(box);
  return {
    signingKey: { key: await importDemoKey(keys.signing.privateJwk, 'sign'), kid: DEMO_FAPI2_KID },
    dpopKeys: { privateKey: await importDemoKey(keys.dpop.privateJwk, 'sign'), publicKey: await importDemoKey(keys.dpop.publicJwk, 'verify') },
  };
}

/**
 * The DPoP options of each demo client's calls: the fapi2 client's handle (one per configuration, so the provider's
 * nonce is kept between calls), none for the others.
 */
export function dpopHandles(): (client: { fapi2?: DemoFapi2Keys }, configuration: oidc.Configuration) => { DPoP?: oidc.DPoPHandle } {
  const handles = new WeakMap<oidc.Configuration, oidc.DPoPHandle>();
  return (client, configuration) => {
    if (!client.fapi2) return {};
    let handle = handles.get(configuration);
    if (!handle) {
      handle = oidc.getDPoPHandle(configuration, client.fapi2.dpopKeys);
      handles.set(configuration, handle);
    }
    return { DPoP: handle };
  };
}
