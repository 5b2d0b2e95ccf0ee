import { LIMITS } from '../limits.ts';
import { bindCompanyToGrant } from '../companies/company-choice.ts';
import { ApiError } from '../errors.ts';
import { statementBatch } from '../db/statement-batch.ts';
import { completeReadInteraction } from '../oidc/interaction-completion.ts';
import { InteractionNotFoundError } from '../oidc/provider.ts';
import type { Services } from '../services.ts';
import { eventColumns, type RequestOrigin } from '../store/security-events.ts';
import { recordSignInStepUp } from '../store/sign-in-step-ups.ts';
import { finishTransactionOfEnabledUser } from '../store/transactions.ts';
import { mailSecurityNotice, newNoticeLink } from '../auth/security-notices.ts';
import type { FinishedSignIn } from './pending-sign-in.ts';
import { acrOf } from '../oidc/acr.ts';

/** The sign-in that finishes: its transaction, user, how the user proved it (`amr`) and where it came from. */
export interface SignInToFinish {
  token: string;
  challenge: string;
  interactionUid: string;
  clientId: string;
  userId: string;
  amr: string[];
  origin: RequestOrigin;
  browserHash?: string;
  /** The address a password was just accepted from: its guessing counts are released in the same statement. */
  releaseAttemptFrom?: string;
  /** False when the sign-in is known to have settled on no company (its user has none): nothing to bind to the grant. */
  mayHaveCompany: boolean;
  /** The scopes the person declined on the consent screen: the app's tokens go without them. */
  declinedScopes?: readonly string[];
  /** True when this sign-in proved a second factor itself (not a trusted browser): it counts as a step-up for a while. */
  provedFactor?: boolean;
}

/**
 * Ends a sign-in whose last step has passed: claims the transaction (so of two concurrent submits only one
 * finishes), records the login (with how the user proved it, `amr`) on the provider's interaction and in the
 * audit trail, and answers where the browser goes next. The route that answers forgets the transaction in the browser.
 */
export async function finishSignIn(deps: Pick<Services, 'db' | 'provider' | 'clock' | 'mailer' | 'config'>, sign: SignInToFinish): Promise<FinishedSignIn> {
  const now = new Date(deps.clock());
  const rememberUntil = new Date(now.getTime() + LIMITS.FINISHED_SIGN_IN_TTL * 1000);
  // The audit event and the browser are written with the claim, in one statement: once claimed, the transaction is
  // spent and the user has proven every step, even if the provider then finds its interaction expired (the
  // transaction outlives it by at most the seconds between their starts), which the event's detail cannot tell.
  const event = eventColumns({ kind: 'sign_in', ...sign.origin, detail: { client_id: sign.clientId, amr: sign.amr } });
  // An operator may disable the account while its sign-in is under way (by any path: password, invitation, sign-up).
  // The notice's link is made in case the browser is new, and stored by the same statement only if it is.
  const noticeLink = sign.browserHash === undefined ? undefined : newNoticeLink(deps);
  const ended = await finishTransactionOfEnabledUser(deps.db, { ...sign, rememberUntil, now, event, newBrowserNotice: noticeLink });
  if (ended.outcome !== 'finished') throw new ApiError(ended.outcome === 'disabled' ? 'auth.invalid_credentials' : 'transaction.missing');
  // The Interaction was read with the claim; the grant, the answered Interaction, the step-up and the new-browser
  // notice are written together in one statement (the notice's first try goes out once the answer has left).
  // A failed try leaves the notice in the outbox, whose worker retries it.
  const batch = statementBatch(deps.db, () => undefined);
  const read = { uid: sign.interactionUid, payload: ended.interaction };
  const { returnTo, grantId, written } = await completeReadInteraction(deps.provider, read, sign.userId, { amr: sign.amr, acr: acrOf(sign.amr) }, batch, sign.declinedScopes).catch((error: unknown) => {
    // The provider's side of the sign-in expired while the user typed: they must start again from the app.
    throw error instanceof InteractionNotFoundError ? new ApiError('transaction.missing') : error;
  });
  if (sign.mayHaveCompany) await bindCompanyToGrant(deps, { ...sign, grantId });
  const writes = [written];
  if (sign.provedFactor) writes.push(recordSignInStepUp(batch, { grantId, userId: sign.userId, now, expiresAt: new Date(now.getTime() + LIMITS.ACCOUNT_STEP_UP_TTL * 1000) }));
  if (ended.newBrowserOf && noticeLink) mailSecurityNotice(deps, { user: ended.newBrowserOf, kind: 'new_browser', origin: sign.origin }, noticeLink, batch);
  await Promise.all([batch.send(), ...writes]);
  return { redirect_to: returnTo };
}
