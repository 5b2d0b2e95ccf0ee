import type { FastifyInstance } from 'fastify';
import { LIMITS } from '../config.ts';
import { issueCredentialNonce } from '../store/credential-nonces.ts';
import type { Services } from '../services.ts';

/** `GET crypto/rsa-public-key`: the key browsers encrypt credentials to, with a fresh single-use nonce. */
export function cryptoRoutes(context: Pick<Services, 'clock' | 'db' | 'keys'>) {
  return async (app: FastifyInstance) => {
    app.get('/crypto/rsa-public-key', async (_request, reply) => {
      const now = context.clock();
      const key = await context.keys.currentCredentialKey();
      const expiresAt = new Date(now + LIMITS.CREDENTIAL_NONCE_TTL * 1000);
      const nonce = await issueCredentialNonce(context.db, expiresAt);
      reply.header('cache-control', 'no-store');
      return { kid: key.kid, jwk: key.jwk, nonce, expires_at: expiresAt.toISOString() };
    });
  };
}
