import { markEmailVerified } from '../store/email-verification.ts';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/database.ts';
import { SERVER_CHALLENGES } from '../flows/challenges.ts';
import { createUserFromRegistration, isPreRegistered, type PendingRegistration } from '../store/registrations.ts';
import { advanceTransaction, recordInTransaction } from '../store/transactions.ts';
import type { SignInDeps } from '../sign-in/pending-sign-in.ts';
import { ApiError } from '../errors.ts';
import { currentRegistration, preRegistrationAnswer, registrationCodes } from '../sign-in/registration-state.ts';
import { continueSignIn } from '../sign-in/sign-in-gates.ts';
import { responses, STEP_ANSWER } from './response-schemas.ts';
import { clearCookieWhenFinished } from './transaction-cookie.ts';
import { admitStep, type StepDeps } from './step-guard.ts';
import { registrationSuccess } from '../sign-in/registration-success.ts';

/** What a verified code unlocks: a new account, the completion of a pre-registered one, or nothing (the address is in use). */
type Unlocked = { kind: 'created'; userId: string } | { kind: 'pre-registered'; userId: string } | { kind: 'refused' };

/** Runs inside the code's redemption, so the account is made exactly once. */
async function unlock(tx: Queryable, pending: PendingRegistration, now: Date): Promise<Unlocked> {
  if (pending.existingUserId !== null) {
    // Only an operator's pre-registered account may be completed; a code can never take over one in use.
    return (await isPreRegistered(tx, pending.existingUserId)) ? { kind: 'pre-registered', userId: pending.existingUserId } : { kind: 'refused' };
  }
  const userId = await createUserFromRegistration(tx, pending.id, now);
  return userId ? { kind: 'created', userId } : { kind: 'refused' };
}

/** `POST register/otp/verification`: the emailed code proves the address; the account is made and the sign-in goes on. */
export function registerVerificationRoutes(context: StepDeps & SignInDeps) {
  return async (app: FastifyInstance) => {
    app.post('/register/otp/verification', { schema: { response: responses(STEP_ANSWER) } }, async (request, reply) => {
      const { token, transaction, payload } = await admitStep(context, request, 'register/otp/verification');
      const now = new Date(context.clock());
      const pending = await currentRegistration(context, transaction, now);
      const owner = { registrationId: pending.id, emailNormalized: pending.emailNormalized };
      const outcome = await registrationCodes(context).redeem(owner, String(payload.code), now, (tx) => unlock(tx, pending, now));
      if (outcome === 'too_many_attempts') {
        throw new ApiError('code.too_many_attempts', undefined, { retryAfter: await registrationCodes(context).restingFor(owner.emailNormalized, now) });
      }
      // A refused unlock reads like a wrong code: the address's owner never received a code to enter.
      if (outcome === 'invalid' || outcome.redeemed.kind === 'refused') throw new ApiError('code.invalid');
      const { userId } = outcome.redeemed;
      // The code went to the address: whatever account it opens has proven it.
      await markEmailVerified(context.db, userId, now, pending.emailNormalized);
      if (outcome.redeemed.kind === 'pre-registered') {
        const moved = await advanceTransaction(context.db, token, transaction.challenge, { challenge: SERVER_CHALLENGES.PRE_REGISTRATION, userId });
        if (!moved) throw new ApiError('transaction.missing');
        return preRegistrationAnswer(context, userId, pending);
      }
      await recordInTransaction(context.db, token, transaction.challenge, { emailVerified: true });
      const next = clearCookieWhenFinished(context.config, reply, await continueSignIn(context, { token, transaction, userId }));
      return 'redirect_to' in next ? registrationSuccess(context, userId, next) : next;
    });
  };
}
