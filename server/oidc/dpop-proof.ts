import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, EmbeddedJWK, jwtVerify } from 'jose';
import type Provider from 'oidc-provider';
import { LIMITS } from '../limits.ts';
import type { DpopNonces } from './dpop-nonces.ts';

/** The algorithms a DPoP proof may be signed with (oidc-provider's default `dPoPSigningAlgValues`, and PS256). */
const PROOF_ALGORITHMS = ['ES256', 'PS256', 'EdDSA', 'Ed25519'];

/** Why a proof was refused: RFC 9449's two error codes, with a new nonce for `use_dpop_nonce`. */
export type DpopRefusal = { error: 'invalid_dpop_proof'; description: string } | { error: 'use_dpop_nonce'; description: string; nonce: string };

/** The request a proof must be for, and the token it must be bound with. */
export interface DpopRequest {
  proof: string | undefined;
  method: string;
  /** The endpoint's absolute URL, as the client was told it. */
  url: string;
  accessToken: string;
  /** The thumbprint the token is bound to (`cnf.jkt`). */
  jkt: string;
  clientId: string;
}

const refuse = (description: string): DpopRefusal => ({ error: 'invalid_dpop_proof', description });

/**
 * Checks a DPoP proof for a bound access token at a resource (RFC 9449 §4.3, §7.1): a `dpop+jwt` signed by the key
 * in its header, that key being the one the token is bound to, for this method and URL, for this token (`ath`),
 * recent (its `iat`, or a server nonce) and never seen before (its `jti`, in oidc-provider's replay store, so a proof
 * used at `/oidc/me` is refused here too). Undefined when the proof holds.
 */
export async function checkDpopProof(deps: { provider: Provider; nonces: DpopNonces; nowSeconds: number }, request: DpopRequest): Promise<DpopRefusal | undefined> {
  if (!request.proof) return refuse('the token is DPoP-bound: send a DPoP proof');
  let payload;
  let header;
  try {
    ({ payload, protectedHeader: header } = await jwtVerify(request.proof, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: PROOF_ALGORITHMS }));
  } catch {
    return refuse('the DPoP proof is not a valid dpop+jwt');
  }
  if (typeof payload.iat !== 'number' || typeof payload.jti !== 'string' || payload.jti === '') return refuse('the DPoP proof needs iat and jti');
  if (payload.nonce !== undefined) {
    if (typeof payload.nonce !== 'string' || !deps.nonces.accepts(payload.nonce, deps.nowSeconds)) {
      return { error: 'use_dpop_nonce', description: 'the DPoP nonce is not valid: use the one given', nonce: deps.nonces.next(deps.nowSeconds) };
    }
  } else if (Math.abs(deps.nowSeconds - payload.iat) > LIMITS.DPOP_PROOF_WINDOW) {
    return { error: 'use_dpop_nonce', description: 'the DPoP proof is not recent: use the nonce given', nonce: deps.nonces.next(deps.nowSeconds) };
  }
  if (payload.htm !== request.method) return refuse('the DPoP proof is for another method (htm)');
  const htu = typeof payload.htu === 'string' ? URL.parse(payload.htu) : null;
  if (htu) {
    htu.search = '';
    htu.hash = '';
  }
  if (htu?.href !== new URL(request.url).href) return refuse('the DPoP proof is for another URL (htu)');
  if (payload.ath !== createHash('sha256').update(request.accessToken).digest('base64url')) return refuse('the DPoP proof is for another token (ath)');
  if (!header.jwk || (await calculateJwkThumbprint(header.jwk)) !== request.jkt) return refuse('the DPoP proof is signed by another key than the token is bound to');
  const unique = await deps.provider.ReplayDetection.unique(request.clientId, payload.jti, deps.nowSeconds + LIMITS.DPOP_PROOF_WINDOW);
  if (!unique) return refuse('the DPoP proof was used before (jti)');
  return undefined;
}
