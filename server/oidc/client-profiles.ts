import type { Client, Configuration, KoaContextWithOIDC } from 'oidc-provider';
import type { SecretBox } from '../crypto/secret-box.ts';
import { LIMITS } from '../limits.ts';
import { PROFILE_METADATA } from './client-metadata.ts';
import { DPOP_NONCE_PURPOSE } from './dpop-nonces.ts';

/** True for a client registered with the `fapi2` profile. */
export function isFapi2(client: Client | undefined): boolean {
  return client?.metadata()[PROFILE_METADATA] === 'fapi2';
}

/**
 * The provider features behind the client profiles. oidc-provider's FAPI 2.0 profile applies per client (PKCE, the
 * request checks); the client's metadata (client-metadata.ts) requires PAR and DPoP-bound tokens. DPoP is on for
 * every client that sends a proof, with server nonces (`DPoP-Nonce`, RFC 9449 §8) from a key derived from the master
 * key, so every server process issues and accepts the same ones.
 */
export function profileFeatures(box: SecretBox): Pick<NonNullable<Configuration['features']>, 'fapi' | 'dPoP'> {
  return {
    fapi: { enabled: true, profile: (_ctx: KoaContextWithOIDC, client: Client | undefined) => (isFapi2(client) ? '2.0' : undefined) },
    dPoP: { enabled: true, nonceSecret: box.derive(DPOP_NONCE_PURPOSE) },
  };
}

/** A code lives `LIMITS.AUTHORIZATION_CODE_TTL`, and no longer than FAPI 2.0 allows for a `fapi2` client. */
export function authorizationCodeTtl(_ctx: KoaContextWithOIDC, _code: unknown, client: Client): number {
  return isFapi2(client) ? Math.min(LIMITS.FAPI2_AUTHORIZATION_CODE_TTL, LIMITS.AUTHORIZATION_CODE_TTL) : LIMITS.AUTHORIZATION_CODE_TTL;
}
