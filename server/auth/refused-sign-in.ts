import { loginDelaySeconds } from './lockout.ts';
import { LIMITS } from '../limits.ts';
import { lockoutMail } from '../mail/templates.ts';
import type { Services } from '../services.ts';
import { recordSecurityEvent } from '../store/security-events.ts';

/** A logger for what went wrong in the background, without the request's secrets. */
export interface BackgroundLog {
  warn(details: object, message: string): void;
}

/** A refused sign-in of an existing account: who, why, from where, and the account's failures counting this one. */
export interface RefusedSignIn {
  userId: string;
  email: string;
  reason: 'waiting' | 'wrong_password' | 'account_disabled' | 'wrong_authenticator_code';
  failures: number;
  origin: { ip?: string; userAgent?: string; at: Date };
}

/** What recording a refusal needs. */
export type RefusalDeps = Pick<Services, 'db' | 'mailer' | 'config'>;

/**
 * Records a refused sign-in of an existing account, and at the failure that starts the account's back-off (a wrong
 * password or a wrong authenticator code alike) the lockout event and the owner's mail with a reset link.
 */
export async function recordRefusal(deps: RefusalDeps, refused: RefusedSignIn): Promise<void> {
  const event = { ...refused.origin, userId: refused.userId };
  await recordSecurityEvent(deps.db, { ...event, kind: 'sign_in_failed', detail: { reason: refused.reason } });
  const counted = refused.reason === 'wrong_password' || refused.reason === 'wrong_authenticator_code';
  if (!counted || refused.failures !== LIMITS.LOGIN_FAILURES_BEFORE_DELAY) return;
  await recordSecurityEvent(deps.db, { ...event, kind: 'lockout_started', detail: { failures: refused.failures, wait_seconds: loginDelaySeconds(refused.failures) } });
  const resetUrl = new URL('/auth/forgot-password', deps.config.publicUrl).href;
  await deps.mailer.send(lockoutMail(refused.email, refused.failures, resetUrl, refused.reason === 'wrong_password' ? 'password' : 'authenticator_code'));
}

/**
 * Records a refused password sign-in after the answer (recordRefusal, never awaited by the route), so a refusal for
 * an existing address does no more work before answering than one for an unknown address.
 */
export function recordRefusedSignIn(deps: RefusalDeps, refused: RefusedSignIn, log: BackgroundLog): void {
  setImmediate(() => {
    recordRefusal(deps, refused).catch((error: unknown) => log.warn({ err: { message: error instanceof Error ? error.message : String(error) } }, 'recording a refused sign-in failed'));
  });
}
