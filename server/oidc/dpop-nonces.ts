import { hkdfSync, timingSafeEqual } from 'node:crypto';
import type { SecretBox } from '../crypto/secret-box.ts';

/** What the provider's `features.dPoP.nonceSecret` and the step API's nonces are both derived from. */
export const DPOP_NONCE_PURPOSE = 'dpop-nonces';

/** A nonce is valid for two minutes either side of its minute, as oidc-provider's own DPoP nonces are. */
const STEP_SECONDS = 60;
const STEPS_EITHER_SIDE = 2;

/** Server nonces for DPoP proofs (RFC 9449 §8), the same ones oidc-provider issues and accepts at its endpoints. */
export interface DpopNonces {
  /** The nonce a client should put in its next proof. */
  next(nowSeconds: number): string;
  /** True for a nonce this deployment issued recently. */
  accepts(nonce: string, nowSeconds: number): boolean;
}

function bigEndian(step: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigInt64BE(BigInt(step));
  return bytes;
}

/**
 * Nonces computed, never stored: HKDF of the minute under a key derived from the master key (oidc-provider's
 * ServerChallenge scheme, with the secret it is given in client-profiles.ts), so every process and both the
 * provider's `/oidc/me` and the step API's `userinfo` agree on them, and a client's cached nonce works at both.
 */
export function createDpopNonces(box: SecretBox): DpopNonces {
  const secret = box.derive(DPOP_NONCE_PURPOSE);
  const at = (step: number) => Buffer.from(hkdfSync('sha256', secret, bigEndian(step), 'DPoP', 32)).toString('base64url');
  return {
    next: (nowSeconds) => at(Math.floor(nowSeconds / STEP_SECONDS) + 1),
    accepts(nonce, nowSeconds) {
      const step = Math.floor(nowSeconds / STEP_SECONDS);
      let matched = false;
      for (let offset = -STEPS_EITHER_SIDE; offset <= STEPS_EITHER_SIDE; offset += 1) {
        const expected = Buffer.from(at(step + offset));
        const given = Buffer.from(nonce);
        matched = (given.length === expected.length && timingSafeEqual(given, expected)) || matched;
      }
      return matched;
    },
  };
}
