import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import { SERVER_CHALLENGES } from '../flows/challenges.ts';
import { RECOVERY_CODES_SAVED } from '../sign-in/gates/first-recovery-codes.ts';
import { mfaSignIn } from '../sign-in/mfa-settle.ts';
import { settleWithRecoveryCode } from '../sign-in/recovery-sign-in.ts';
import type { SignInDeps } from '../sign-in/pending-sign-in.ts';
import { continueSignIn } from '../sign-in/sign-in-gates.ts';
import { responses, STEP_ANSWER } from './response-schemas.ts';
import { admitStep, type StepDeps } from './step-guard.ts';
import { clearCookieWhenFinished } from './transaction-cookie.ts';

/**
 * `POST auth/mfa/recovery`: a recovery code in place of the second factor, at any second-factor step of a sign-in.
 * `POST auth/mfa/recovery-codes`: "I've saved my codes" on the screen that showed a first factor's new codes, the only
 * way on from there (the flow graph admits no other step's call while that screen is owed); `GET` it: that screen
 * entered again, without the codes.
 */
export function recoveryCodeRoutes(context: StepDeps & SignInDeps) {
  return async (app: FastifyInstance) => {
    app.post('/auth/mfa/recovery', { schema: { response: responses(STEP_ANSWER) } }, async (request, reply) => {
      const admitted = await admitStep(context, request, 'auth/mfa/recovery');
      return clearCookieWhenFinished(context.config, reply, await settleWithRecoveryCode(context, admitted, String(admitted.payload.code)));
    });

    // Entered again (a reload, Back) while the step is owed: where the sign-in stands, without the codes, shown once.
    app.get('/auth/mfa/recovery-codes', { schema: { response: responses(STEP_ANSWER) } }, async (request) => {
      const { transaction } = await admitStep(context, request, 'auth/mfa/recovery-codes');
      if (transaction.challenge !== SERVER_CHALLENGES.SAVE_RECOVERY_CODES) throw new ApiError('step.out_of_order');
      return { challenge: SERVER_CHALLENGES.SAVE_RECOVERY_CODES, parameters: {} };
    });

    app.post('/auth/mfa/recovery-codes', { schema: { response: responses(STEP_ANSWER) } }, async (request, reply) => {
      const { sign } = mfaSignIn(await admitStep(context, request, 'auth/mfa/recovery-codes'));
      if (sign.transaction.challenge !== SERVER_CHALLENGES.SAVE_RECOVERY_CODES) throw new ApiError('step.out_of_order');
      const saved = { [RECOVERY_CODES_SAVED]: true };
      const transaction = { ...sign.transaction, data: { ...sign.transaction.data, ...saved } };
      return clearCookieWhenFinished(context.config, reply, await continueSignIn(context, { ...sign, transaction, record: saved }));
    });
  };
}
