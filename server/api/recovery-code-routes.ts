import type { FastifyInstance } from 'fastify';
import { settleWithRecoveryCode } from '../sign-in/recovery-sign-in.ts';
import type { SignInDeps } from '../sign-in/pending-sign-in.ts';
import { responses, STEP_ANSWER } from './response-schemas.ts';
import { admitStep, type StepDeps } from './step-guard.ts';
import { clearCookieWhenFinished } from './transaction-cookie.ts';

/** `POST auth/mfa/recovery`: a recovery code in place of the second factor, at any second-factor step of a sign-in. */
export function recoveryCodeRoutes(context: StepDeps & SignInDeps) {
  return async (app: FastifyInstance) => {
    app.post('/auth/mfa/recovery', { schema: { response: responses(STEP_ANSWER) } }, async (request, reply) => {
      const admitted = await admitStep(context, request, 'auth/mfa/recovery');
      return clearCookieWhenFinished(context.config, reply, await settleWithRecoveryCode(context, admitted, String(admitted.payload.code)));
    });
  };
}
