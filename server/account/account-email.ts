import { LIMITS } from '../limits.ts';
import { ApiError } from '../errors.ts';
import { emailChangeCodeMail } from '../mail/templates.ts';
import type { Services } from '../services.ts';
import { applyEmailChange, emailTaken, pendingEmailChange, saveEmailChange } from '../store/email-changes.ts';
import { findUserById } from '../store/users.ts';
import { recordAccountChange } from './account-events.ts';
import type { AccountCaller } from './account-token.ts';

/** What changing the email uses. */
export type EmailChangeDeps = Pick<Services, 'db' | 'clock' | 'codes' | 'mailer' | 'config'>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Starts an email change: the code goes to the new address, and nothing changes until it is entered there. */
export async function requestEmailChange(deps: EmailChangeDeps, caller: AccountCaller, input: string): Promise<{ pendingEmail: string }> {
  const newEmail = input.trim();
  if (!EMAIL.test(newEmail) || newEmail.length > 254) throw new ApiError('request.invalid', { message: "Please enter valid email address. e.g 'name@example.com'", key: 'validation.email.invalid' });
  if (await emailTaken(deps.db, newEmail, caller.userId)) throw new ApiError('account.email_taken');
  const now = new Date(deps.clock());
  await saveEmailChange(deps.db, { userId: caller.userId, newEmail, expiresAt: new Date(now.getTime() + LIMITS.ONE_TIME_CODE_TTL * 1000) });
  const code = await deps.codes.issue(caller.userId, 'email_change', now);
  try {
    await deps.mailer.send(emailChangeCodeMail(newEmail, code, LIMITS.ONE_TIME_CODE_TTL / 60));
  } catch {
    throw new ApiError('server.unavailable');
  }
  return { pendingEmail: newEmail };
}

/** Confirms the change with the code sent to the new address; the old address is told, and so is the new one. */
export async function confirmEmailChange(deps: EmailChangeDeps, caller: AccountCaller, code: string): Promise<{ email: string }> {
  const now = new Date(deps.clock());
  const newEmail = await pendingEmailChange(deps.db, caller.userId, now);
  if (!newEmail) throw new ApiError('code.invalid');
  const outcome = await deps.codes.redeem(caller.userId, 'email_change', code.trim(), now);
  if (outcome === 'too_many_attempts') throw new ApiError('code.too_many_attempts', undefined, { retryAfter: await deps.codes.restingFor(caller.userId, 'email_change', now) });
  if (outcome !== 'redeemed') throw new ApiError('code.invalid');
  // The notice goes to the old address before the change, so its owner hears of it even if it was not them.
  await recordAccountChange(deps, { userId: caller.userId, kind: 'email_changed', origin: caller.origin });
  if (!(await applyEmailChange(deps.db, caller.userId, newEmail))) throw new ApiError('account.email_taken');
  const user = await findUserById(deps.db, caller.userId);
  return { email: user?.email ?? newEmail };
}
