import { codeCapEndsAt } from '../auth/code-cap.ts';
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
import { UnsentMessage } from '../outbox/outbox.ts';
import type { MfaProgress } from './mfa-progress.ts';

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
 * Sends a code for `factor` unless its channel's cooldown still runs (then the last code stays the one to enter).
 * Answers what the code screen shows; once the account's hourly allowance is spent it refuses with when another
 * code may be sent (code.too_many_requested, with Retry-After), so no screen claims a code that did not go.
 */
export async function sendFactorCode(deps: CodeDeps, factor: MfaFactor, setup: boolean): Promise<Record<string, unknown>> {
  const progress = { kind: factor.kind, setup };
  const channel: CodeChannel = factor.kind === 'sms' ? 'sms' : 'email';
  const now = new Date(deps.clock());
  const { to, masked } = await destinationOf(deps, factor);
  const purpose = codePurpose(progress);
  // Over the hourly cap nothing is sent, and the screen says so (never "we sent a code" for one that did not go).
  const capEnds = await codeCapEndsAt(deps.db, factor.userId, purpose, now);
  if (capEnds) {
    const retryAfter = Math.max(1, Math.ceil((capEnds.getTime() - now.getTime()) / 1000));
    throw new ApiError('code.too_many_requested', undefined, { retryAfter, params: { retry_at: capEnds.toISOString() } });
  }
  // While the cooldown runs the last code stays the one to enter, unless it is used up (a sign-in that just finished).
  const force = !(await deps.codes.hasLive(factor.userId, purpose, now));
  const claim = await claimDelivery(deps.db, { userId: factor.userId, channel, destination: masked, now, cooldownSeconds: LIMITS.MFA_RESEND_COOLDOWN, force });
  if (!claim.granted) return codeParameters(claim.delivery, progress);
  // With the account's wrong tries spent (a new code could not be used), nothing is sent.
  if ((await deps.codes.restingFor(factor.userId, purpose, now)) > 0) return codeParameters(claim.delivery, progress);
  const minutes = LIMITS.ONE_TIME_CODE_TTL / 60;
  // The code and its message commit together and the message is tried at once. If that try fails the screen says
  // the code did not go, so the code and its message are withdrawn: no retry delivers it later, and a mail outage
  // does not use up the hourly allowance (which counts only codes that may have reached the person).
  let issued: string | undefined;
  try {
    await deps.codes.issue(factor.userId, purpose, now, (tx, code) => {
      issued = code;
      return channel === 'sms' ? deps.sms.send({ to, text: smsCodeText(code, deps.config.publicUrl, minutes) }, tx) : deps.mailer.send(mfaCodeMail(to, code, minutes), tx);
    });
  } catch (error) {
    if (error instanceof UnsentMessage && issued !== undefined) {
      await error.withdraw();
      await deps.codes.withdraw(factor.userId, purpose, issued);
    }
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
