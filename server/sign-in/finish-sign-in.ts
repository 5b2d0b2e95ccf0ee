import { LIMITS } from '../config.ts';
import { bindCompanyToGrant } from '../companies/company-choice.ts';
import { ApiError } from '../errors.ts';
import { completeInteraction, InteractionNotFoundError } from '../oidc/provider.ts';
import type { Services } from '../services.ts';
import { recordSecurityEvent, type RequestOrigin } from '../store/security-events.ts';
import { finishTransactionOfEnabledUser } from '../store/transactions.ts';
import { noteBrowser } from '../store/known-browsers.ts';
import { findUserById } from '../store/users.ts';
import { sendSecurityNotice } from '../auth/security-notices.ts';
import type { FinishedSignIn } from './pending-sign-in.ts';

/**
 * Ends a sign-in whose last step has passed: claims the transaction (so of two concurrent submits only one
 * finishes), records the login (with how the user proved it, `amr`) on the provider's interaction and in the
 * audit trail, and answers where the browser goes next. The route that answers forgets the transaction in the browser.
 */
export async function finishSignIn(
  deps: Pick<Services, 'db' | 'provider' | 'clock' | 'mailer' | 'config'>,
  sign: { token: string; challenge: string; interactionUid: string; clientId: string; userId: string; amr: string[]; origin: RequestOrigin; browserHash?: string },
): Promise<FinishedSignIn> {
  // An operator may disable the account while its sign-in is under way (by any path: password, invitation, sign-up).
  const rememberUntil = new Date(deps.clock() + LIMITS.FINISHED_SIGN_IN_TTL * 1000);
  const ended = await finishTransactionOfEnabledUser(deps.db, { ...sign, rememberUntil });
  if (ended === 'disabled') throw new ApiError('auth.invalid_credentials');
  if (ended === 'missing') throw new ApiError('transaction.missing');
  const { returnTo, grantId } = await completeInteraction(deps.provider, sign.interactionUid, sign.userId, { amr: sign.amr }).catch((error: unknown) => {
    // The provider's side of the sign-in expired while the user typed: they must start again from the app.
    throw error instanceof InteractionNotFoundError ? new ApiError('transaction.missing') : error;
  });
  await bindCompanyToGrant(deps, { ...sign, grantId });
  const now = new Date(deps.clock());
  await recordSecurityEvent(deps.db, { userId: sign.userId, kind: 'sign_in', at: now, ...sign.origin, detail: { client_id: sign.clientId, amr: sign.amr } });
  if (sign.browserHash !== undefined) {
    const browser = await noteBrowser(deps.db, sign.userId, sign.browserHash, now);
    const user = browser.isNew && browser.hadOthers ? await findUserById(deps.db, sign.userId) : undefined;
    if (user) await sendSecurityNotice(deps, { user, kind: 'new_browser', origin: sign.origin });
  }
  return { redirect_to: returnTo };
}
