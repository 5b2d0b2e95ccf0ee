import type { FastifyInstance } from 'fastify';
import { LIMITS } from '../limits.ts';
import { issueCredentialNonce } from '../store/credential-nonces.ts';
import type { Services } from '../services.ts';
import { responses } from './response-schemas.ts';

/** The credential key as a JWK (its members as the key type has them), the nonce to seal with it, and when the nonce expires. */
const PUBLIC_KEY_ANSWER = {
  type: 'object',
  properties: { kid: { type: 'string' }, jwk: { type: 'object', additionalProperties: true }, nonce: { type: 'string' }, expires_at: { type: 'string' } },
} as const;

/** `GET crypto/rsa-public-key`: the key browsers encrypt credentials to, with a fresh single-use nonce. */
export function cryptoRoutes(context: Pick<Services, 'clock' | 'db' | 'keys'>) {
  return async (app: FastifyInstance) => {
    app.get('/crypto/rsa-public-key', { schema: { response: responses(PUBLIC_KEY_ANSWER) } }, async () => {
      const now = context.clock();
      const key = await context.keys.currentCredentialKey();
      const expiresAt = new Date(now + LIMITS.CREDENTIAL_NONCE_TTL * 1000);
      const nonce = await issueCredentialNonce(context.db, expiresAt);
      return { kid: key.kid, jwk: key.jwk, nonce, expires_at: expiresAt.toISOString() };
    });
  };
}
