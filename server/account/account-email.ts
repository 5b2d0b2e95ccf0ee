import { LIMITS } from '../limits.ts';
import { ApiError } from '../errors.ts';
import { maskEmail } from '../mask.ts';
import { emailChangeAttemptMail, emailChangeCodeMail } from '../mail/templates.ts';
import type { Services } from '../services.ts';
import { applyEmailChange, cancelEmailChange, emailTaken, pendingEmailChange, saveEmailChange } from '../store/email-changes.ts';
import { emailChangeMailsSince } from '../store/email-change-mails.ts';
import { findUserById } from '../store/users.ts';
import { recordAccountChange } from './account-events.ts';
import { requireStepUp, type AccountFactorDeps } from './account-factors.ts';
import type { AccountCaller } from './account-token.ts';

/** What changing the email uses: the step-up's, and the codes and mail. */
export type EmailChangeDeps = AccountFactorDeps & Pick<Services, 'codes'>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const HOUR_MS = 3600 * 1000;

/** Where the owner of a taken address may reset its password. */
const FORGOT_PASSWORD_PATH = '/auth/forgot-password';

/**
 * Starts an email change (after a step-up). The code goes to the new address, and nothing changes until it is
 * entered there. An address another account has is answered exactly alike (no registered-address oracle): its owner
 * gets a warning instead of a code. Either way at most LIMITS.EMAIL_CHANGE_MAILS_PER_HOUR mails go out per account.
 */
export async function requestEmailChange(deps: EmailChangeDeps, caller: AccountCaller, input: string): Promise<{ pendingEmail: string; expiresAt: string }> {
  await requireStepUp(deps, caller);
  const newEmail = input.trim();
  if (!EMAIL.test(newEmail) || newEmail.length > 254) throw new ApiError('request.invalid', { message: "Please enter valid email address. e.g 'name@example.com'", key: 'validation.email.invalid' });
  const now = new Date(deps.clock());
  const expiresAt = new Date(now.getTime() + LIMITS.ONE_TIME_CODE_TTL * 1000);
  const taken = await emailTaken(deps.db, newEmail, caller.userId);
  // The code and its mail commit together, and only under the hourly cap, counted under the account's row lock so
  // parallel requests cannot all slip in.
  await deps.codes.issue(caller.userId, 'email_change', now, async (tx, code) => {
    const sent = await emailChangeMailsSince(tx, caller.userId, new Date(now.getTime() - HOUR_MS));
    if (sent.count > LIMITS.EMAIL_CHANGE_MAILS_PER_HOUR) {
      const retryAfter = Math.max(1, Math.ceil(((sent.oldest?.getTime() ?? now.getTime()) + HOUR_MS - now.getTime()) / 1000));
      throw new ApiError('account.email_change_limit', undefined, { retryAfter });
    }
    const forgotUrl = new URL(FORGOT_PASSWORD_PATH, deps.config.publicUrl).href;
    await deps.mailer.send(taken ? emailChangeAttemptMail(newEmail, forgotUrl) : emailChangeCodeMail(newEmail, code, LIMITS.ONE_TIME_CODE_TTL / 60), tx);
  });
  await saveEmailChange(deps.db, { userId: caller.userId, newEmail, expiresAt });
  return { pendingEmail: newEmail, expiresAt: expiresAt.toISOString() };
}

/**
 * Confirms the change (after a step-up) with the code sent to the new address. The old address is told, with a
 * link that undoes the change for LIMITS.EMAIL_CHANGE_REVERT_TTL.
 */
export async function confirmEmailChange(deps: EmailChangeDeps, caller: AccountCaller, code: string): Promise<{ email: string }> {
  await requireStepUp(deps, caller);
  const now = new Date(deps.clock());
  const pending = await pendingEmailChange(deps.db, caller.userId, now);
  if (!pending) throw new ApiError('code.invalid');
  const outcome = await deps.codes.redeem(caller.userId, 'email_change', code.trim(), now);
  if (outcome === 'too_many_attempts') throw new ApiError('code.too_many_attempts', undefined, { retryAfter: await deps.codes.restingFor(caller.userId, 'email_change', now) });
  if (outcome !== 'redeemed') throw new ApiError('code.invalid');
  // Only someone who read the code at the new address gets here, so saying it is taken tells them nothing new.
  if (await emailTaken(deps.db, pending.newEmail, caller.userId)) throw new ApiError('account.email_taken');
  // The notice goes to the old address before the change, so its owner hears of it (and can undo it) even if it was not them.
  await recordAccountChange(deps, { userId: caller.userId, kind: 'email_changed', origin: caller.origin, notice: { newEmail: maskEmail(pending.newEmail) } });
  if (!(await applyEmailChange(deps.db, caller.userId, pending.newEmail))) throw new ApiError('account.email_taken');
  const user = await findUserById(deps.db, caller.userId);
  return { email: user?.email ?? pending.newEmail };
}

/** Drops the pending email change: its code stops working. Needs no step-up (it only keeps things as they are). */
export async function cancelPendingEmailChange(deps: Pick<Services, 'db'>, caller: AccountCaller): Promise<{ pendingEmail: null }> {
  await cancelEmailChange(deps.db, caller.userId);
  return { pendingEmail: null };
}
