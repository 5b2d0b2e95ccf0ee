import { ApiError } from '../errors.ts';
import { LIMITS } from '../limits.ts';
import { InteractionNotFoundError } from '../oidc/provider.ts';
import { refuseInteraction, type InteractionRefusal } from '../oidc/interaction-refusal.ts';
import type { Services } from '../services.ts';
import { finishTransaction } from '../store/transactions.ts';
import type { FinishedSignIn } from './pending-sign-in.ts';

/**
 * Ends a sign-in that cannot meet what the client asked for: claims the transaction (so no other answer goes on with
 * it), and hands the provider the refusal, which the client app gets as a standard error at its redirect URI.
 */
export async function refuseSignIn(
  deps: Pick<Services, 'db' | 'provider' | 'clock'>,
  sign: { token: string; challenge: string; interactionUid: string },
  refusal: InteractionRefusal,
): Promise<FinishedSignIn> {
  const rememberUntil = new Date(deps.clock() + LIMITS.FINISHED_SIGN_IN_TTL * 1000);
  if (!(await finishTransaction(deps.db, sign.token, sign.challenge, rememberUntil))) throw new ApiError('transaction.missing');
  const returnTo = await refuseInteraction(deps.provider, sign.interactionUid, refusal).catch((error: unknown) => {
    throw error instanceof InteractionNotFoundError ? new ApiError('transaction.missing') : error;
  });
  return { redirect_to: returnTo };
}
