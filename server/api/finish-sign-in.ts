import type { FastifyReply } from 'fastify';
import { bindCompanyToGrant } from '../companies/company-choice.ts';
import { completeInteraction, InteractionNotFoundError } from '../oidc/provider.ts';
import { finishTransaction } from '../store/transactions.ts';
import type { ApiContext } from './api-context.ts';
import { ApiError } from './errors.ts';
import { clearTransactionCookie } from './transaction-cookie.ts';

/**
 * Ends a sign-in whose last step has passed: claims the transaction (so of two concurrent submits only one
 * finishes), records the login (with how the user proved it, `amr`) on the provider's interaction, and answers where the browser goes next.
 */
export async function finishSignIn(
  context: ApiContext,
  reply: FastifyReply,
  sign: { token: string; challenge: string; interactionUid: string; userId: string; amr: string[] },
): Promise<{ redirect_to: string }> {
  if (!(await finishTransaction(context.db, sign.token, sign.challenge))) throw new ApiError('transaction.missing');
  const returnTo = await completeInteraction(context.provider, sign.interactionUid, sign.userId, { amr: sign.amr }).catch((error: unknown) => {
    // The provider's side of the sign-in expired while the user typed: they must start again from the app.
    throw error instanceof InteractionNotFoundError ? new ApiError('transaction.missing') : error;
  });
  await bindCompanyToGrant(context, sign);
  clearTransactionCookie(context.config, reply);
  return { redirect_to: returnTo };
}
