import type { FastifyInstance } from 'fastify';
import { verifyPassword } from '../auth/passwords.ts';
import { completeInteraction, InteractionNotFoundError } from '../oidc/provider.ts';
import { findCredentialsByEmail } from '../store/users.ts';
import { finishTransaction } from '../store/transactions.ts';
import type { ApiContext } from './api-context.ts';
import { ApiError } from './errors.ts';
import { admitStep } from './step-guard.ts';
import { clearTransactionCookie } from './transaction-cookie.ts';

/** `POST auth/login`: checks the encrypted credentials and finishes the interaction with a redirect. */
export function loginRoutes(context: ApiContext) {
  return async (app: FastifyInstance) => {
    app.post('/auth/login', async (request, reply) => {
      const { token, transaction, payload } = await admitStep(context, request, 'auth/login');
      const email = String(payload.email);
      const password = String(payload.password);
      const found = await findCredentialsByEmail(context.db, email);
      // Unknown users are checked against a decoy hash, so both failures cost the same and look the same.
      const valid = await verifyPassword(password, found?.passwordHash);
      if (!found || !valid) throw new ApiError('auth.invalid_credentials');
      // Claim the transaction first, so of two concurrent correct submits only one finishes the sign-in.
      if (!(await finishTransaction(context.db, token, transaction.challenge))) throw new ApiError('transaction.missing');
      const returnTo = await completeInteraction(context.provider, transaction.interactionUid, found.user.id).catch((error: unknown) => {
        // The provider's side of the sign-in expired while the user typed: they must start again from the app.
        throw error instanceof InteractionNotFoundError ? new ApiError('transaction.missing') : error;
      });
      clearTransactionCookie(context.config, reply);
      reply.header('cache-control', 'no-store');
      return { redirect_to: returnTo };
    });
  };
}
