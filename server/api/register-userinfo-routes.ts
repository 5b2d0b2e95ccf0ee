import type { FastifyInstance } from 'fastify';
import { hashPassword } from '../auth/passwords.ts';
import { SERVER_CHALLENGES } from '../flows/challenges.ts';
import { completePreRegistration, findPendingRegistration, findPreRegisteredUser, markRegistrationCompleted, type PendingRegistration } from '../store/registrations.ts';
import type { ApiContext } from './api-context.ts';
import { ApiError } from './errors.ts';
import { continueSignIn } from './sign-in-gates.ts';
import { admitStep } from './step-guard.ts';

/** Attribute values the completion form can show: strings only. */
function textAttributes(attributes: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(attributes).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/**
 * What the completion screen preloads: what the operator knew, else what the user typed when signing up, with the
 * attributes either gave. Never the password.
 */
export async function preRegistrationAnswer(context: ApiContext, userId: string, pending: PendingRegistration | undefined) {
  const user = await findPreRegisteredUser(context.db, userId);
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

/** `GET register/userinfo` preloads a pre-registered account; `POST register/userinfo` completes it with a password. */
export function registerUserinfoRoutes(context: ApiContext) {
  const pendingOf = async (data: Record<string, unknown>, now: Date) =>
    typeof data.pendingRegistrationId === 'string' ? findPendingRegistration(context.db, data.pendingRegistrationId, now) : undefined;

  return async (app: FastifyInstance) => {
    app.get('/register/userinfo', async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { transaction } = await admitStep(context, request, 'register/userinfo');
      if (!transaction.userId) throw new ApiError('step.out_of_order');
      return preRegistrationAnswer(context, transaction.userId, await pendingOf(transaction.data, new Date(context.clock())));
    });

    app.post('/register/userinfo', async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { token, transaction, payload } = await admitStep(context, request, 'register/userinfo');
      const password = String(payload.password);
      const unmet = context.passwordPolicy(password);
      if (unmet !== undefined) throw new ApiError('request.invalid', unmet);
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
      const next = await continueSignIn(context, reply, { token, transaction, userId: transaction.userId });
      return 'redirect_to' in next ? { challenge: SERVER_CHALLENGES.SUCCESS_REGISTRATION, redirect_to: next.redirect_to } : next;
    });
  };
}
