import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { hashPassword } from '../auth/passwords.ts';
import { LIMITS } from '../limits.ts';
import { SERVER_CHALLENGES } from '../flows/challenges.ts';
import { claimResend, createPendingRegistration, findAccountState, findPendingRegistration } from '../store/registrations.ts';
import { recordInTransaction } from '../store/transactions.ts';
import { normalizeEmail } from '../store/users.ts';
import type { Services } from '../services.ts';
import { ApiError } from '../errors.ts';
import { currentRegistration, registrationAnswer, sendRegistrationMail } from '../sign-in/registration-state.ts';
import { responses, STEP_ANSWER } from './response-schemas.ts';
import { withRetryAfter } from './retry-after.ts';
import { admitStep, type StepDeps } from './step-guard.ts';

/**
 * `POST register` starts a sign-up and mails its code; `GET register/otp` tells where the code went (a reload of
 * the verification screen); `POST register/otp` sends another after the cooldown.
 */
export function registerRoutes(context: StepDeps & Pick<Services, 'box' | 'mailer' | 'passwordPolicy'>) {
  return async (app: FastifyInstance) => {
    app.post('/register', { schema: { response: responses(STEP_ANSWER) } }, async (request, reply) => {
      const started = performance.now();
      const { token, transaction, payload } = await admitStep(context, request, 'register');
      const password = String(payload.password);
      const unmet = context.passwordPolicy(password);
      if (unmet !== undefined) throw new ApiError('request.invalid', { ...unmet, field: 'password' });
      const now = new Date(context.clock());
      const email = String(payload.email);
      // A new address and one with an account take the same path: one lookup, one argon2id hash, one stored attempt,
      // one stored code and one email in the background. Only which email differs, and no one but its owner sees it.
      const account = await findAccountState(context.db, email);
      const id = await createPendingRegistration(context.db, {
        email,
        firstName: String(payload.firstName),
        lastName: String(payload.lastName),
        passwordHash: await hashPassword(password),
        existingUserId: account?.userId ?? null,
        now,
        ttlSeconds: LIMITS.REGISTRATION_TTL,
        resendAfterSeconds: LIMITS.REGISTRATION_RESEND_COOLDOWN,
      });
      const ownerHasAccount = account !== undefined && !account.preRegistered;
      await sendRegistrationMail(context, { id, email, emailNormalized: normalizeEmail(email), ownerHasAccount }, now);
      const recorded = await recordInTransaction(context.db, token, transaction.challenge, { registration: true, pendingRegistrationId: id });
      if (!recorded) throw new ApiError('transaction.missing');
      const pending = await findPendingRegistration(context.db, id, now);
      if (!pending) throw new ApiError('transaction.missing');
      // The answer leaves no sooner than the floor, whichever case ran, so its timing says nothing either.
      await sleep(Math.max(0, LIMITS.REGISTRATION_RESPONSE_FLOOR_MS - (performance.now() - started)));
      return withRetryAfter(reply, registrationAnswer(pending, now));
    });

    app.get('/register/otp', { schema: { response: responses(STEP_ANSWER) } }, async (request, reply) => {
      const { transaction } = await admitStep(context, request, 'register/otp');
      const now = new Date(context.clock());
      return withRetryAfter(reply, registrationAnswer(await currentRegistration(context, transaction, now), now));
    });

    app.post('/register/otp', { schema: { response: responses(STEP_ANSWER) } }, async (request, reply) => {
      const { transaction } = await admitStep(context, request, 'register/otp');
      const now = new Date(context.clock());
      const pending = await currentRegistration(context, transaction, now);
      const wait = await claimResend(context.db, pending.id, now, LIMITS.REGISTRATION_RESEND_COOLDOWN);
      if (wait !== undefined) {
        reply.header('retry-after', String(wait));
        throw new ApiError('code.resend_too_soon');
      }
      const account = await findAccountState(context.db, pending.email);
      const ownerHasAccount = pending.existingUserId !== null && account !== undefined && !account.preRegistered;
      await sendRegistrationMail(context, { ...pending, ownerHasAccount }, now);
      const fresh = await currentRegistration(context, transaction, now);
      return { challenge: SERVER_CHALLENGES.RESEND_OTP, ...withRetryAfter(reply, registrationAnswer(fresh, now)) };
    });
  };
}
