import type { FastifyInstance } from 'fastify';
import { hashPassword } from '../auth/passwords.ts';
import { preRegistrationAnswer } from '../sign-in/registration-state.ts';
import { completePreRegistration, findPendingRegistration, markRegistrationCompleted } from '../store/registrations.ts';
import type { Services } from '../services.ts';
import type { SignInDeps } from '../sign-in/pending-sign-in.ts';
import { ApiError } from '../errors.ts';
import { continueSignIn } from '../sign-in/sign-in-gates.ts';
import { responses, STEP_ANSWER } from './response-schemas.ts';
import { clearCookieWhenFinished } from './transaction-cookie.ts';
import { admitStep, type StepDeps } from './step-guard.ts';
import { registrationSuccess } from '../sign-in/registration-success.ts';

/** `GET register/userinfo` preloads a pre-registered account; `POST register/userinfo` completes it with a password. */
export function registerUserinfoRoutes(context: StepDeps & SignInDeps & Pick<Services, 'passwordPolicy'>) {
  const pendingOf = async (data: Record<string, unknown>, now: Date) =>
    typeof data.pendingRegistrationId === 'string' ? findPendingRegistration(context.db, data.pendingRegistrationId, now) : undefined;

  return async (app: FastifyInstance) => {
    app.get('/register/userinfo', { schema: { response: responses(STEP_ANSWER) } }, async (request) => {
      const { transaction } = await admitStep(context, request, 'register/userinfo');
      if (!transaction.userId) throw new ApiError('step.out_of_order');
      return preRegistrationAnswer(context, transaction.userId, await pendingOf(transaction.data, new Date(context.clock())));
    });

    app.post('/register/userinfo', { schema: { response: responses(STEP_ANSWER) } }, async (request, reply) => {
      const { token, transaction, payload } = await admitStep(context, request, 'register/userinfo');
      const password = String(payload.password);
      const unmet = context.passwordPolicy(password);
      if (unmet !== undefined) throw new ApiError('request.invalid', { ...unmet, field: 'password' });
      if (!transaction.userId) throw new ApiError('step.out_of_order');
      const now = new Date(context.clock());
      const pending = await pendingOf(transaction.data, now);
      const completed = await completePreRegistration(context.db, {
        userId: transaction.userId,
        firstName: String(payload.firstName),
        lastName: String(payload.lastName),
        passwordHash: await hashPassword(password),
        attributes: pending?.attributes ?? {},
        now,
      });
      if (!completed) throw new ApiError('step.out_of_order');
      if (pending) await markRegistrationCompleted(context.db, pending.id, now);
      const next = clearCookieWhenFinished(context.config, reply, await continueSignIn(context, { token, transaction, userId: transaction.userId }));
      return 'redirect_to' in next ? registrationSuccess(context, transaction.userId, next) : next;
    });
  };
}
