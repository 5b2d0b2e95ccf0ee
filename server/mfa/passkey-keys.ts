/**
 * A passkey's public key must be what its COSE algorithm says (WebAuthn L2 §7.1 step 22, RFC 9053): the key type and
 * curve that algorithm signs with, and a real key of that type (a point on the curve, a modulus of a sound size).
 * @simplewebauthn/server only checks that the algorithm is one we offered; a key whose algorithm and type disagree
 * would be verified later by whichever of the two the verifier reads.
 */
import crypto from 'node:crypto';
import { COSEALG, decodeCredentialPublicKey } from '@simplewebauthn/server/helpers';
import { LIMITS } from '../limits.ts';

/** COSE key parameters (RFC 9052 §7, RFC 9053 §7). */
const KTY = 1;
const ALG = 3;
const CRV_OR_N = -1;
const X_OR_E = -2;
const Y = -3;

/** What each algorithm we accept signs with: its COSE key type, curve, and the key Node must import from it. */
const KEY_SHAPES = {
  [COSEALG.EdDSA]: { kty: 1, crv: 6, jwk: (key: CoseKey) => okpJwk(key, 'Ed25519'), nodeType: 'ed25519' },
  [COSEALG.ES256]: { kty: 2, crv: 1, jwk: (key: CoseKey) => ecJwk(key, 'P-256'), nodeType: 'ec' },
  [COSEALG.RS256]: { kty: 3, crv: undefined, jwk: (key: CoseKey) => rsaJwk(key), nodeType: 'rsa' },
} as const;

/** The COSE algorithms a new passkey may use (offered in the registration options, and required of the answer). */
export const PASSKEY_ALGORITHMS: number[] = Object.keys(KEY_SHAPES).map(Number);

type CoseKey = Map<number, unknown>;

const bytes = (value: unknown): string | undefined => (value instanceof Uint8Array && value.length > 0 ? Buffer.from(value).toString('base64url') : undefined);

function okpJwk(key: CoseKey, crv: string): crypto.JsonWebKey | undefined {
  const x = bytes(key.get(X_OR_E));
  return x === undefined ? undefined : { kty: 'OKP', crv, x };
}

function ecJwk(key: CoseKey, crv: string): crypto.JsonWebKey | undefined {
  const x = bytes(key.get(X_OR_E));
  const y = bytes(key.get(Y));
  return x === undefined || y === undefined ? undefined : { kty: 'EC', crv, x, y };
}

function rsaJwk(key: CoseKey): crypto.JsonWebKey | undefined {
  const n = bytes(key.get(CRV_OR_N));
  const e = bytes(key.get(X_OR_E));
  return n === undefined || e === undefined ? undefined : { kty: 'RSA', n, e };
}

/** Node's view of the key, or undefined when it is no key of that type at all (a point off the curve, bytes of the wrong length). */
function imported(jwk: crypto.JsonWebKey | undefined): crypto.KeyObject | undefined {
  if (jwk === undefined) return undefined;
  try {
    return crypto.createPublicKey({ key: jwk, format: 'jwk' });
  } catch {
    return undefined;
  }
}

/**
 * Whether a passkey's COSE public key is a sound key of the type, curve and size its algorithm needs; false for a
 * key that does not decode, an algorithm we did not offer, or any disagreement between them.
 */
export function coseKeyMatchesAlgorithm(publicKey: Uint8Array): boolean {
  let key: CoseKey;
  try {
    key = decodeCredentialPublicKey(new Uint8Array(publicKey)) as CoseKey;
  } catch {
    return false;
  }
  const alg = key.get(ALG);
  if (typeof alg !== 'number' || !Object.hasOwn(KEY_SHAPES, alg)) return false;
  const shape = KEY_SHAPES[alg as keyof typeof KEY_SHAPES];
  if (key.get(KTY) !== shape.kty) return false;
  if (shape.crv !== undefined && key.get(CRV_OR_N) !== shape.crv) return false;
  const node = imported(shape.jwk(key));
  if (node?.asymmetricKeyType !== shape.nodeType) return false;
  const details = node.asymmetricKeyDetails;
  if (shape.nodeType === 'ec') return details?.namedCurve === 'prime256v1';
  if (shape.nodeType === 'rsa') return (details?.modulusLength ?? 0) >= LIMITS.PASSKEY_RSA_MIN_BITS;
  return true;
}
