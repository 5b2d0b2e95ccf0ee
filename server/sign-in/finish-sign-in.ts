import { LIMITS } from '../config.ts';
import { bindCompanyToGrant } from '../companies/company-choice.ts';
import { ApiError } from '../errors.ts';
import { completeInteraction, InteractionNotFoundError } from '../oidc/provider.ts';
import type { Services } from '../services.ts';
import { finishTransaction } from '../store/transactions.ts';
import type { FinishedSignIn } from './pending-sign-in.ts';

/**
 * Ends a sign-in whose last step has passed: claims the transaction (so of two concurrent submits only one
 * finishes), records the login (with how the user proved it, `amr`) on the provider's interaction, and answers where the browser goes next.
 * The route that answers forgets the transaction in the browser.
 */
export async function finishSignIn(
  deps: Pick<Services, 'db' | 'provider' | 'clock'>,
  sign: { token: string; challenge: string; interactionUid: string; userId: string; amr: string[] },
): Promise<FinishedSignIn> {
  const rememberUntil = new Date(deps.clock() + LIMITS.FINISHED_SIGN_IN_TTL * 1000);
  if (!(await finishTransaction(deps.db, sign.token, sign.challenge, rememberUntil))) throw new ApiError('transaction.missing');
  const returnTo = await completeInteraction(deps.provider, sign.interactionUid, sign.userId, { amr: sign.amr }).catch((error: unknown) => {
    // The provider's side of the sign-in expired while the user typed: they must start again from the app.
    throw error instanceof InteractionNotFoundError ? new ApiError('transaction.missing') : error;
  });
  await bindCompanyToGrant(deps, sign);
  return { redirect_to: returnTo };
}
