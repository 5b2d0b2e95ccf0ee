import type { CodePurpose } from '../auth/one-time-codes.ts';
import { LIMITS } from '../limits.ts';
import { ApiError } from '../errors.ts';
import { mfaCodeMail } from '../mail/templates.ts';
import { maskEmail, maskPhone } from '../mask.ts';
import type { Services } from '../services.ts';
import { smsCodeText } from '../sms/sms-sender.ts';
import { claimDelivery, lastDelivery, type CodeChannel, type CodeDelivery } from '../store/code-deliveries.ts';
import type { MfaFactor } from '../store/mfa-factors.ts';
import { findUserById } from '../store/users.ts';
import type { MfaProgress } from './mfa-progress.ts';

const HOUR_MS = 3600 * 1000;

/** What sending a factor's code uses: the store, the clock, the codes and both channels. */
export type CodeDeps = Pick<Services, 'config' | 'db' | 'clock' | 'codes' | 'mailer' | 'sms'>;

/** Which code purpose a factor's codes have: a phone being set up gets codes of its own, never valid for sign-in. */
export function codePurpose(progress: Pick<MfaProgress, 'kind' | 'setup'>): CodePurpose {
  if (progress.kind === 'email') return 'mfa_email';
  return progress.setup ? 'mfa_sms_setup' : 'mfa_sms';
}

/** What a code screen shows: where and when the code went, how long it lives, the wait before another. */
export function codeParameters(delivery: CodeDelivery, progress: Pick<MfaProgress, 'kind' | 'setup'>): Record<string, unknown> {
  return {
    channel: progress.kind,
    delivery_destination: delivery.destination,
    sent_at: delivery.sentAt.toISOString(),
    expires_in: LIMITS.ONE_TIME_CODE_TTL,
    retry_after: delivery.retryAfter,
    ...(progress.setup ? { action: 'setup' } : {}),
  };
}

/** Where a factor's codes go: the account's address, or the factor's phone. */
async function destinationOf(deps: Pick<Services, 'db'>, factor: MfaFactor): Promise<{ to: string; masked: string }> {
  if (factor.kind === 'sms' && factor.phone) return { to: factor.phone, masked: maskPhone(factor.phone) };
  const user = await findUserById(deps.db, factor.userId);
  if (!user) throw new ApiError('transaction.missing');
  return { to: user.email, masked: maskEmail(user.email) };
}

/**
 * Sends a code for `factor` unless its channel's cooldown still runs (then the last code stays the one to enter)
 * or the account's hourly allowance is spent. Answers what the code screen shows either way.
 */
export async function sendFactorCode(deps: CodeDeps, factor: MfaFactor, setup: boolean): Promise<Record<string, unknown>> {
  const progress = { kind: factor.kind, setup };
  const channel: CodeChannel = factor.kind === 'sms' ? 'sms' : 'email';
  const now = new Date(deps.clock());
  const { to, masked } = await destinationOf(deps, factor);
  const purpose = codePurpose(progress);
  // While the cooldown runs the last code stays the one to enter, unless it is used up (a sign-in that just finished).
  const force = !(await deps.codes.hasLive(factor.userId, purpose, now));
  const claim = await claimDelivery(deps.db, { userId: factor.userId, channel, destination: masked, now, cooldownSeconds: LIMITS.MFA_RESEND_COOLDOWN, force });
  if (!claim.granted) return codeParameters(claim.delivery, progress);
  // Over the hourly cap, or with the account's wrong tries spent (a new code could not be used), nothing is sent.
  if ((await deps.codes.issuedSince(factor.userId, purpose, new Date(now.getTime() - HOUR_MS))) >= LIMITS.MFA_CODES_PER_HOUR) {
    return codeParameters(claim.delivery, progress);
  }
  if ((await deps.codes.restingFor(factor.userId, purpose, now)) > 0) return codeParameters(claim.delivery, progress);
  const minutes = LIMITS.ONE_TIME_CODE_TTL / 60;
  // The code and its message commit together; the message is then sent at once, or later by the outbox's retries
  // (a failed first try is still answered as unavailable, so the screen says so).
  try {
    await deps.codes.issue(factor.userId, purpose, now, (tx, code) =>
      channel === 'sms' ? deps.sms.send({ to, text: smsCodeText(code, deps.config.publicUrl, minutes) }, tx) : deps.mailer.send(mfaCodeMail(to, code, minutes), tx),
    );
  } catch {
    throw new ApiError('server.unavailable');
  }
  return codeParameters(claim.delivery, progress);
}

/** Asks for another code: refused while the channel's cooldown runs, so the screen's countdown is the server's. */
export async function resendFactorCode(deps: CodeDeps, factor: MfaFactor, setup: boolean): Promise<Record<string, unknown>> {
  const channel: CodeChannel = factor.kind === 'sms' ? 'sms' : 'email';
  const last = await lastDelivery(deps.db, factor.userId, channel, new Date(deps.clock()));
  if (last && last.retryAfter > 0 && last.destination === (await destinationOf(deps, factor)).masked) {
    throw new ApiError('code.resend_too_soon', undefined, { retryAfter: last.retryAfter });
  }
  return sendFactorCode(deps, factor, setup);
}

/** Where the current code went, for a code screen entered by its address (a reload). */
export async function currentCodeParameters(deps: CodeDeps, factor: MfaFactor, setup: boolean): Promise<Record<string, unknown>> {
  const channel: CodeChannel = factor.kind === 'sms' ? 'sms' : 'email';
  const last = await lastDelivery(deps.db, factor.userId, channel, new Date(deps.clock()));
  if (!last) return sendFactorCode(deps, factor, setup);
  return codeParameters(last, { kind: factor.kind, setup });
}
