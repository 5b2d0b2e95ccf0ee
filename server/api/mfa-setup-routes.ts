import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SERVER_CHALLENGES } from '../flows/challenges.ts';
import { setupKinds, usableFactors } from '../mfa/factor-choices.ts';
import { beginSetup, normalizePhone, setupAgain, type FactorDeps } from '../mfa/factor-flow.ts';
import { mfaPassed, usedRecoveryCode } from '../mfa/mfa-progress.ts';
import type { FactorKind } from '../store/mfa-factors.ts';
import { advanceTransaction } from '../store/transactions.ts';
import type { Services } from '../services.ts';
import type { SignInDeps } from '../sign-in/pending-sign-in.ts';
import { ApiError } from '../errors.ts';
import { FIELD_PARAM } from '../../contract/error-codes.ts';
import { mfaSignIn } from '../sign-in/mfa-settle.ts';
import { answerSecondFactor } from './mfa-sign-in-routes.ts';
import type { GateAnswer } from '../sign-in/pending-sign-in.ts';
import { responses, STEP_ANSWER } from './response-schemas.ts';
import { admitStep, type AdmittedStep, type StepDeps } from './step-guard.ts';
import { PASSKEY_ANSWER_BODY, passkeyAnswer } from './passkey-sign-in-routes.ts';
import { settlePasskeySetup } from '../sign-in/passkey-settle.ts';
import { isVerifiedSignUpEmail, settleVerifiedEmail } from '../sign-in/verified-email-factor.ts';
import { clearCookieWhenFinished } from './transaction-cookie.ts';
import { lostFactorsRecord } from '../sign-in/lost-factors.ts';

/**
 * Setting up is open only to a sign-in that has not passed a second factor and whose user has none usable:
 * a password alone must never be enough to add a factor to an account that has one.
 */
async function admitSetup(context: StepDeps & Pick<Services, 'flags'>, request: FastifyRequest, path: string, registrationOnly: boolean): Promise<AdmittedStep> {
  const admitted = await admitStep(context, request, path);
  const { sign } = mfaSignIn(admitted);
  if (context.flags.isOn('mfa-disable-skip-registration') || mfaPassed(sign.transaction)) throw new ApiError('step.out_of_order');
  if (registrationOnly && sign.transaction.data.registration !== true) throw new ApiError('step.out_of_order');
  // After a recovery code the person replaces a lost factor, so one they still have does not close the setup.
  if (!usedRecoveryCode(sign.transaction) && (await usableFactors(context, sign.userId)).length > 0) throw new ApiError('step.out_of_order');
  return admitted;
}

/** Moves the sign-in to the answer's challenge, atomically (of two concurrent answers one moves it). */
async function moveTo(context: Pick<Services, 'db'>, admitted: AdmittedStep, answer: GateAnswer): Promise<GateAnswer> {
  const { sign } = mfaSignIn(admitted);
  const { record, ...shown } = answer;
  if (!(await advanceTransaction(context.db, sign.token, sign.transaction.challenge, { challenge: answer.challenge, userId: sign.userId, record }))) {
    throw new ApiError('transaction.missing');
  }
  return shown;
}

/** The challenges at which a phone number may be entered: asked for it, or at its code ("Wrong number? Change it"). */
const PHONE_CHALLENGES: readonly string[] = [SERVER_CHALLENGES.SETUP_SMS_MFA, SERVER_CHALLENGES.VERIFY_SETUP_SMS_MFA];

/**
 * Starts the setup of the chosen kind (MFA_SETUP), or sends the code to the number entered (SETUP_SMS_MFA, or
 * VERIFY_SETUP_SMS_MFA for a corrected number: the code goes to the new one).
 */
async function initialize(context: FactorDeps & Pick<Services, 'flags'>, admitted: AdmittedStep): Promise<GateAnswer> {
  const { sign } = mfaSignIn(admitted);
  const { payload } = admitted;
  if (PHONE_CHALLENGES.includes(sign.transaction.challenge) && typeof payload.phone === 'string') {
    if (!setupKinds(context).includes('sms')) throw new ApiError('mfa.method_unavailable');
    const phone = normalizePhone(payload.phone);
    if (!phone) throw new ApiError('phone.invalid', undefined, { params: { [FIELD_PARAM]: 'phone' } });
    return moveTo(context, admitted, await beginSetup(context, sign, 'sms', phone));
  }
  const kind = setupKinds(context).find((allowed) => allowed === payload.type);
  if (!kind) throw new ApiError('mfa.method_unavailable');
  const answer = await beginSetup(context, sign, kind satisfies FactorKind);
  if (!usedRecoveryCode(sign.transaction)) return moveTo(context, admitted, answer);
  // After a recovery code the choice also says whether the factors the person has now were lost (removed once the new one works).
  const lost = await lostFactorsRecord(context, sign.userId, payload.removeLost === true);
  return moveTo(context, admitted, { ...answer, record: { ...answer.record, ...lost } });
}

/**
 * Setting up a second factor: `auth/2fa/initialization` (POST: start the chosen kind, or send the code to a phone;
 * GET: the authenticator setup again, after a reload) and `auth/2fa/verification` (the first code confirms it).
 * During sign-up the same steps use `register/totp` and `register/totp/verification`.
 */
export function mfaSetupRoutes(context: StepDeps & SignInDeps) {
  return async (app: FastifyInstance) => {
    app.get('/auth/2fa/initialization', { schema: { response: responses(STEP_ANSWER) } }, async (request) => {
      const admitted = await admitSetup(context, request, 'auth/2fa/initialization', false);
      const { sign, progress } = mfaSignIn(admitted);
      if (!progress?.setup) throw new ApiError('step.out_of_order');
      return setupAgain(context, sign, progress);
    });
    for (const { path, registrationOnly } of [
      { path: 'auth/2fa/initialization', registrationOnly: false },
      { path: 'register/totp', registrationOnly: true },
    ]) {
      app.post(`/${path}`, { schema: { response: responses(STEP_ANSWER) } }, async (request, reply) => {
        const admitted = await admitSetup(context, request, path, registrationOnly);
        const { sign } = mfaSignIn(admitted);
        // The sign-up's own code proved the address a moment ago: no second code for the same proof.
        if (setupKinds(context).includes('email') && isVerifiedSignUpEmail(sign, String(admitted.payload.type))) {
          return clearCookieWhenFinished(context.config, reply, await settleVerifiedEmail(context, sign));
        }
        return initialize(context, admitted);
      });
    }
    app.post('/auth/2fa/passkey', { schema: { body: PASSKEY_ANSWER_BODY, response: responses(STEP_ANSWER) } }, async (request, reply) => {
      const admitted = await admitSetup(context, request, 'auth/2fa/passkey', false);
      const { credential, name } = passkeyAnswer(request);
      return clearCookieWhenFinished(context.config, reply, await settlePasskeySetup(context, admitted, credential, name));
    });
    for (const { path, registrationOnly } of [
      { path: 'auth/2fa/verification', registrationOnly: false },
      { path: 'register/totp/verification', registrationOnly: true },
    ]) {
      app.post(`/${path}`, { schema: { response: responses(STEP_ANSWER) } }, async (request, reply) => {
        const admitted = await admitSetup(context, request, path, registrationOnly);
        return answerSecondFactor(context, reply, admitted, true);
      });
    }
  };
}
