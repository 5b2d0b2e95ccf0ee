import { markEmailVerified } from '../store/email-verification.ts';
import { revokeAllTrustedDevices } from '../store/trusted-devices.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { sendSecurityNotice } from '../auth/security-notices.ts';
import { endSessions } from '../auth/sessions.ts';
import { LIMITS } from '../limits.ts';
import { mailFailureLogger } from '../mail/mailer.ts';
import { resetCodeMail } from '../mail/templates.ts';
import { recordSecurityEvent } from '../store/security-events.ts';
import { findCredentialsByEmail, normalizeEmail, setPassword } from '../store/users.ts';
import type { Services } from '../services.ts';
import { ApiError } from '../errors.ts';
import { maskEmail } from '../mask.ts';
import { responses, STEP_ANSWER } from './response-schemas.ts';
import { admitOpenStep, type StepDeps } from './step-guard.ts';
import { SERVER_CHALLENGES } from '../flows/challenges.ts';

const HOUR_MS = 3600 * 1000;

/** Whether another reset code may go out: under the hourly cap, with wrong tries left. */
async function mayMailResetCode(context: Pick<Services, 'codes'>, userId: string, now: Date): Promise<boolean> {
  if ((await context.codes.issuedSince(userId, 'password_reset', new Date(now.getTime() - HOUR_MS))) >= LIMITS.RESET_EMAILS_PER_HOUR) return false;
  return (await context.codes.restingFor(userId, 'password_reset', now)) === 0;
}

/**
 * `POST password/reset` and `POST password/reset/confirmation`: recovery by a 6-digit code sent by email.
 * Open to anyone, so both answer exactly alike whether or not the email has an account.
 */
export function passwordResetRoutes(context: StepDeps & Pick<Services, 'codes' | 'mailer' | 'passwordPolicy' | 'provider'>) {

  return async (app: FastifyInstance) => {
    app.post('/password/reset', { schema: { response: responses(STEP_ANSWER) } }, async (request) => {
      const started = performance.now();
      const payload = await admitOpenStep(context, request, 'password/reset');
      const email = String(payload.email);
      const now = new Date(context.clock());
      const found = await findCredentialsByEmail(context.db, email);
      // No code is mailed over the hourly cap, nor while the account's wrong tries are spent: it could not be used.
      if (found && (await mayMailResetCode(context, found.user.id, now))) {
        // The code and its message commit together (the outbox sends it), so a crash cannot leave a code nobody got.
        await context.codes.issue(found.user.id, 'password_reset', now, (tx, code) =>
          context.mailer.send(resetCodeMail(found.user.email, code, LIMITS.ONE_TIME_CODE_TTL / 60), tx),
        );
      }
      // The answer leaves no sooner than the floor, whichever branch ran, so its timing says nothing either.
      await sleep(Math.max(0, LIMITS.RESET_RESPONSE_FLOOR_MS - (performance.now() - started)));
      return {
        challenge: SERVER_CHALLENGES.PASSWORD_RECOVERY,
        parameters: { delivery_destination: maskEmail(email), expires_in: LIMITS.ONE_TIME_CODE_TTL, retry_after: LIMITS.RESET_RESEND_COOLDOWN },
      };
    });

    app.post('/password/reset/confirmation', { schema: { response: responses(STEP_ANSWER) } }, async (request) => {
      const payload = await admitOpenStep(context, request, 'password/reset/confirmation');
      const password = String(payload.password);
      const unmet = context.passwordPolicy(password);
      if (unmet !== undefined) throw new ApiError('request.invalid', { ...unmet, field: 'password' });
      const now = new Date(context.clock());
      const found = await findCredentialsByEmail(context.db, String(payload.email));
      if (!found) throw new ApiError('code.invalid');
      const outcome = await context.codes.redeem(found.user.id, 'password_reset', String(payload.code), now);
      if (outcome === 'too_many_attempts') {
        throw new ApiError('code.too_many_attempts', undefined, { retryAfter: await context.codes.restingFor(found.user.id, 'password_reset', now) });
      }
      if (outcome === 'invalid') throw new ApiError('code.invalid');
      // Only after the code: checked earlier, this would tell anyone without the code whether a password is current.
      if (await verifyPassword(password, found.passwordHash)) throw new ApiError('password.reused');
      await setPassword(context.db, found.user.id, await hashPassword(password), now);
      // The code was mailed to the account's address, so entering it proved the address.
      await markEmailVerified(context.db, found.user.id, now, normalizeEmail(found.user.email));
      const origin = { ip: request.ip, userAgent: request.headers['user-agent'] };
      await recordSecurityEvent(context.db, { userId: found.user.id, kind: 'password_reset', at: now, ...origin });
      await endSessions(context, { userId: found.user.id, which: { all: true }, reason: 'password_reset', origin });
      // Whoever reset the password may be the owner locking a thief out: no browser skips the second factor any more.
      await revokeAllTrustedDevices(context.db, found.user.id);
      // The owner proved control of the mailbox, so earlier failed guesses no longer hold their sign-in back.
      await context.db.query('delete from login_failures where user_id = $1', [found.user.id]);
      await sendSecurityNotice({ ...context, onMailFailure: mailFailureLogger(request.log) }, { user: found.user, kind: 'password_reset', origin });
      return { challenge: SERVER_CHALLENGES.SUCCESS_PASSWORD_RESET };
    });
  };
}
