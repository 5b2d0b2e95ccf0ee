import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sharedDeviceHint } from '../auth/trusted-devices.ts';
import { SERVER_CHALLENGES } from '../flows/challenges.ts';
import { currentCodeParameters, resendFactorCode } from '../mfa/code-factor.ts';
import { setupChoices, signInChoices, smsAllowed, usableFactors } from '../mfa/factor-choices.ts';
import { startFactor } from '../mfa/factor-flow.ts';
import { mfaPassed, usedRecoveryCode } from '../mfa/mfa-progress.ts';
import { recoverySetupAnswer } from '../sign-in/lost-factors.ts';
import { recoveryCodeHint } from '../mfa/recovery-code-hint.ts';
import { findFactor, type MfaFactor } from '../store/mfa-factors.ts';
import { advanceTransaction } from '../store/transactions.ts';
import type { Services } from '../services.ts';
import type { PendingSignIn, SignInDeps } from '../sign-in/pending-sign-in.ts';
import { ApiError } from '../errors.ts';
import { mfaSignIn, settleSecondFactor } from '../sign-in/mfa-settle.ts';
import { responses, STEP_ANSWER } from './response-schemas.ts';
import { findTransactionWithFactor, type FactorSignIn } from '../store/sign-in-state.ts';
import { admitStep, type AdmittedStep, type StepDeps, type TransactionReader } from './step-guard.ts';
import { clearCookieWhenFinished, setTrustCookie } from './transaction-cookie.ts';

/** Admits a second-factor step of a sign-in that still owes one; the skip flag closes them all, on the server. */
async function admitMfa<Extra = never>(
  context: StepDeps & Pick<Services, 'flags'>,
  request: FastifyRequest,
  path: string,
  reader?: TransactionReader<Extra>,
): Promise<AdmittedStep<Extra>> {
  const admitted = await admitStep(context, request, path, reader);
  if (context.flags.isOn('mfa-disable-skip-registration') || mfaPassed(admitted.transaction)) throw new ApiError('step.out_of_order');
  return admitted;
}

/**
 * The factor whose code is in progress (email or SMS), as long as it may still be used; read with the transaction
 * when the step's reader was findTransactionWithFactor.
 */
async function codeFactor(context: Pick<Services, 'db' | 'flags'>, admitted: AdmittedStep<FactorSignIn | undefined>): Promise<{ factor: MfaFactor; setup: boolean }> {
  const { sign, progress } = mfaSignIn(admitted);
  const factor = progress && (admitted.extra ? admitted.extra.factor : await findFactor(context.db, sign.userId, progress.factorId));
  if (!progress || !factor || factor.kind === 'totp' || factor.kind === 'passkey') throw new ApiError('step.out_of_order');
  if (factor.kind === 'sms' && !smsAllowed(context)) throw new ApiError('mfa.method_unavailable');
  return { factor, setup: progress.setup };
}

/**
 * Checks the code of a second-factor step and answers what comes next; with "Don't ask for a code on this device"
 * ticked, the browser also gets its trust cookie.
 */
export async function answerSecondFactor(context: SignInDeps, reply: FastifyReply, admitted: AdmittedStep<FactorSignIn | undefined>, setup: boolean) {
  const { answer, trustToken } = await settleSecondFactor(context, admitted, String(admitted.payload.code), setup, admitted.payload.trustDevice === true);
  if (trustToken !== undefined) setTrustCookie(context.config, reply, trustToken);
  return clearCookieWhenFinished(context.config, reply, answer);
}

/** The method choice asked for again (Back, a reload): after a recovery code the setup, else the person's factors, else the setup. */
async function choicesAgain(context: SignInDeps, sign: PendingSignIn, factors: readonly MfaFactor[]) {
  if (usedRecoveryCode(sign.transaction)) return recoverySetupAnswer(context, sign.userId);
  if (factors.length > 0) {
    const parameters = { availableChoices: await signInChoices(context, sign.userId, factors), ...(await recoveryCodeHint(context.db, sign)) };
    return { challenge: SERVER_CHALLENGES.SELECT_MFA_TYPE, parameters };
  }
  const parameters = { availableChoices: await setupChoices(context, sign.userId), registration: sign.transaction.data.registration === true };
  return { challenge: SERVER_CHALLENGES.MFA_SETUP, parameters };
}

/**
 * Signing in with a second factor: `auth/mfa/selection` (GET: the choices again, to switch; POST: use one),
 * `auth/mfa/verification` (the code), `auth/mfa/otp` (GET: where the emailed or texted code went),
 * `auth/mfa/otp/resend/request` (another code, after the cooldown) and `auth/mfa/otp/resend/submit` (the code
 * entered after a resend).
 */
export function mfaSignInRoutes(context: StepDeps & SignInDeps) {
  return async (app: FastifyInstance) => {
    app.get('/auth/mfa/selection', { schema: { response: responses(STEP_ANSWER) } }, async (request) => {
      const admitted = await admitMfa(context, request, 'auth/mfa/selection');
      const { sign } = mfaSignIn(admitted);
      const factors = await usableFactors(context, sign.userId);
      if (factors.length === 0 && !context.config.mfaRequired) throw new ApiError('step.out_of_order');
      const answer = await choicesAgain(context, sign, factors);
      if (!(await advanceTransaction(context.db, sign.token, sign.transaction.challenge, { challenge: answer.challenge, userId: sign.userId }))) {
        throw new ApiError('transaction.missing');
      }
      return answer;
    });

    app.post('/auth/mfa/selection', { schema: { response: responses(STEP_ANSWER) } }, async (request) => {
      const admitted = await admitMfa(context, request, 'auth/mfa/selection');
      const { sign } = mfaSignIn(admitted);
      const factor = (await usableFactors(context, sign.userId)).find((candidate) => candidate.kind === admitted.payload.type);
      if (!factor) throw new ApiError('mfa.method_unavailable');
      const { record, ...answer } = await startFactor(context, sign, factor, false);
      if (!(await advanceTransaction(context.db, sign.token, sign.transaction.challenge, { challenge: answer.challenge, userId: sign.userId, record }))) {
        throw new ApiError('transaction.missing');
      }
      return answer;
    });

    app.post('/auth/mfa/verification', { schema: { response: responses(STEP_ANSWER) } }, async (request, reply) => {
      // The code's factor is read with the transaction: one round trip fewer.
      const admitted = await admitMfa(context, request, 'auth/mfa/verification', findTransactionWithFactor);
      return answerSecondFactor(context, reply, admitted, false);
    });

    app.get('/auth/mfa/otp', { schema: { response: responses(STEP_ANSWER) } }, async (request) => {
      const admitted = await admitMfa(context, request, 'auth/mfa/otp');
      const { factor, setup } = await codeFactor(context, admitted);
      const hint = setup ? {} : await recoveryCodeHint(context.db, mfaSignIn(admitted).sign);
      const parameters = { ...(await currentCodeParameters(context, factor, setup)), ...sharedDeviceHint(admitted.transaction), ...hint };
      return { challenge: admitted.transaction.challenge, parameters };
    });

    app.post('/auth/mfa/otp/resend/request', { schema: { response: responses(STEP_ANSWER) } }, async (request, reply) => {
      const admitted = await admitMfa(context, request, 'auth/mfa/otp/resend/request');
      const { factor, setup } = await codeFactor(context, admitted);
      const parameters = await resendFactorCode(context, factor, setup);
      reply.header('retry-after', String(parameters.retry_after));
      const hint = setup ? {} : await recoveryCodeHint(context.db, mfaSignIn(admitted).sign);
      return { challenge: SERVER_CHALLENGES.RESEND_OTP, parameters: { ...parameters, ...sharedDeviceHint(admitted.transaction), ...hint } };
    });

    app.post('/auth/mfa/otp/resend/submit', { schema: { response: responses(STEP_ANSWER) } }, async (request, reply) => {
      const admitted = await admitMfa(context, request, 'auth/mfa/otp/resend/submit', findTransactionWithFactor);
      const { setup } = await codeFactor(context, admitted);
      return answerSecondFactor(context, reply, admitted, setup);
    });
  };
}
