import { createRegistrationCodes, type RegistrationCodes } from '../auth/registration-codes.ts';
import { LIMITS } from '../limits.ts';
import { ApiError } from '../errors.ts';
import { SERVER_CHALLENGES } from '../flows/challenges.ts';
import { registrationAttemptMail, registrationCodeMail } from '../mail/templates.ts';
import { maskEmail } from '../mask.ts';
import type { Services } from '../services.ts';
import { findPendingRegistration, findPreRegisteredUser, type PendingRegistration } from '../store/registrations.ts';
import type { SignInTransaction } from '../store/transactions.ts';

const HOUR_MS = 3600 * 1000;

/** The registration codes of `deps`, under their own key derived from the master key. */
export function registrationCodes(deps: Pick<Services, 'db' | 'box'>): RegistrationCodes {
  return createRegistrationCodes({ db: deps.db, hashKey: deps.box.derive('registration-codes') });
}

/** The sign-up this transaction started and has not completed; a step of the sign-up reached without one is out of order. */
export async function currentRegistration(deps: Pick<Services, 'db'>, transaction: SignInTransaction, now: Date): Promise<PendingRegistration> {
  const id = transaction.data.pendingRegistrationId;
  const pending = typeof id === 'string' ? await findPendingRegistration(deps.db, id, now) : undefined;
  if (!pending) throw new ApiError('step.out_of_order');
  return pending;
}

/** Seconds until another code may be sent (0 when it may be now). */
export function secondsUntilResend(pending: PendingRegistration, now: Date): number {
  return Math.max(0, Math.ceil((pending.resendAvailableAt.getTime() - now.getTime()) / 1000));
}

/**
 * What the verification screen shows: where and when the code went, how long it lives and when another may be
 * asked for. The same fields for a new address and an existing account; the route also sends the wait as Retry-After.
 */
export function registrationAnswer(pending: PendingRegistration, now: Date) {
  return {
    parameters: {
      delivery_destination: maskEmail(pending.email),
      sent_at: pending.lastSentAt.toISOString(),
      expires_in: LIMITS.ONE_TIME_CODE_TTL,
      retry_after: secondsUntilResend(pending, now),
    },
  };
}

/**
 * The owner's way to a new password: built from PUBLIC_URL only, never from the request. Opening it only shows the
 * forgot-password step with the address filled in; nothing is sent until the owner presses the button.
 */
function forgotPasswordLink(deps: Pick<Services, 'config'>, email: string): string {
  const url = new URL('/auth/forgot-password', deps.config.publicUrl);
  url.searchParams.set('username', email);
  return url.href;
}

/**
 * Sends the sign-up's email: a new code for a new (or operator pre-registered) address; for an address whose
 * account is already in use, a warning to its owner instead. Both issue and store a code and count against the
 * same hourly limit, so the two cases do the same work; over the limit neither sends anything.
 */
export async function sendRegistrationMail(
  deps: Pick<Services, 'config' | 'db' | 'box' | 'mailer'>,
  pending: Pick<PendingRegistration, 'id' | 'email' | 'emailNormalized'> & { ownerHasAccount: boolean },
  now: Date,
): Promise<void> {
  const codes = registrationCodes(deps);
  const recent = await codes.issuedSince(pending.emailNormalized, new Date(now.getTime() - HOUR_MS));
  // Over the hourly cap, or with the address's wrong tries spent (a code could not be used), nothing is sent.
  if (recent >= LIMITS.REGISTRATION_EMAILS_PER_HOUR || (await codes.restingFor(pending.emailNormalized, now)) > 0) return;
  // The code and its mail commit together; the outbox sends the mail, and retries it if the first try fails.
  await codes.issue({ registrationId: pending.id, emailNormalized: pending.emailNormalized }, now, (tx, code) =>
    deps.mailer.send(
      pending.ownerHasAccount ? registrationAttemptMail(pending.email, forgotPasswordLink(deps, pending.email)) : registrationCodeMail(pending.email, code, LIMITS.ONE_TIME_CODE_TTL / 60),
      tx,
    ),
  );
}

/** Attribute values the completion form can show: strings only. */
function textAttributes(attributes: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(attributes).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/**
 * What the completion screen preloads: what the operator knew, else what the user typed when signing up, with the
 * attributes either gave. Never the password.
 */
export async function preRegistrationAnswer(deps: Pick<Services, 'db'>, userId: string, pending: PendingRegistration | undefined) {
  const user = await findPreRegisteredUser(deps.db, userId);
  if (!user) throw new ApiError('step.out_of_order');
  return {
    challenge: SERVER_CHALLENGES.PRE_REGISTRATION,
    parameters: {
      ...textAttributes({ ...pending?.attributes, ...user.attributes }),
      email: user.email,
      firstName: user.firstName || pending?.firstName || '',
      lastName: user.lastName || pending?.lastName || '',
    },
  };
}
