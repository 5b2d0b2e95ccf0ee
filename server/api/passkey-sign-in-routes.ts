import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sharedDeviceHint } from '../auth/trusted-devices.ts';
import { ApiError } from '../errors.ts';
import { SERVER_CHALLENGES } from '../flows/challenges.ts';
import { mfaPassed } from '../mfa/mfa-progress.ts';
import { authenticationOptions, signInOwner } from '../mfa/passkeys.ts';
import type { Services } from '../services.ts';
import { mfaSignIn } from '../sign-in/mfa-settle.ts';
import type { SignInDeps } from '../sign-in/pending-sign-in.ts';
import { settlePasskeyFactor, signInWithPasskey } from '../sign-in/passkey-settle.ts';
import { recoveryCodeHint } from '../mfa/recovery-code-hint.ts';
import { responses, STEP_ANSWER } from './response-schemas.ts';
import { admitStep, type AdmittedStep, type StepDeps } from './step-guard.ts';
import { clearCookieWhenFinished, setTrustCookie } from './transaction-cookie.ts';

/** The body of a passkey step: the browser's WebAuthn answer, as @simplewebauthn/browser hands it over. */
export const PASSKEY_ANSWER_BODY = {
  type: 'object',
  required: ['credential'],
  additionalProperties: false,
  properties: {
    credential: { type: 'object', maxProperties: 10 },
    name: { type: 'string', maxLength: 200 },
  },
} as const;

/** The body of the passkey second-factor step: the answer, and the step form's "Don't ask for a code on this device". */
const PASSKEY_FACTOR_BODY = {
  ...PASSKEY_ANSWER_BODY,
  properties: { ...PASSKEY_ANSWER_BODY.properties, trustDevice: { type: 'boolean' } },
} as const;

/** The browser's WebAuthn answer in an admitted passkey step's body, with the step form's values. */
export function passkeyAnswer(request: FastifyRequest): { credential: unknown; name: string; trustDevice: boolean } {
  const body = request.body as { credential?: unknown; name?: unknown; trustDevice?: unknown };
  return { credential: body.credential, name: typeof body.name === 'string' ? body.name : '', trustDevice: body.trustDevice === true };
}

async function admitPasskeyFactor(context: StepDeps & Pick<Services, 'flags'>, request: FastifyRequest, path: string): Promise<AdmittedStep> {
  const admitted = await admitStep(context, request, path);
  if (context.flags.isOn('mfa-disable-skip-registration') || mfaPassed(admitted.transaction)) throw new ApiError('step.out_of_order');
  const { progress } = mfaSignIn(admitted);
  if (progress?.kind !== 'passkey' || progress.setup) throw new ApiError('step.out_of_order');
  return admitted;
}

/**
 * Passkeys at sign-in: `auth/passkey/options` (the login screen's "Sign in with a passkey" and its autofill: a
 * challenge for any passkey of this site, the sign-in staying at the login step) and `auth/passkey/login` (the browser's answer);
 * `auth/mfa/passkey` (GET: the second-factor challenge again, after a reload; POST: the answer).
 */
export function passkeySignInRoutes(context: StepDeps & SignInDeps) {
  return async (app: FastifyInstance) => {
    app.get('/auth/passkey/options', { schema: { response: responses(STEP_ANSWER) } }, async (request) => {
      const { transaction } = await admitStep(context, request, 'auth/passkey/options');
      const options = await authenticationOptions(context, signInOwner(transaction));
      return { challenge: SERVER_CHALLENGES.PASSKEY_SIGN_IN, parameters: { passkey: { ceremony: 'get', options } } };
    });

    app.post('/auth/passkey/login', { schema: { body: PASSKEY_ANSWER_BODY, response: responses(STEP_ANSWER) } }, async (request, reply) => {
      const admitted = await admitStep(context, request, 'auth/passkey/login');
      return clearCookieWhenFinished(context.config, reply, await signInWithPasskey(context, admitted, passkeyAnswer(request).credential));
    });

    app.get('/auth/mfa/passkey', { schema: { response: responses(STEP_ANSWER) } }, async (request) => {
      const admitted = await admitPasskeyFactor(context, request, 'auth/mfa/passkey');
      const { sign } = mfaSignIn(admitted);
      const options = await authenticationOptions(context, signInOwner(sign.transaction), sign.userId);
      const parameters = { passkey: { ceremony: 'get', options }, ...sharedDeviceHint(sign.transaction), ...(await recoveryCodeHint(context.db, sign)) };
      return { challenge: SERVER_CHALLENGES.PASSKEY_MFA, parameters };
    });

    app.post('/auth/mfa/passkey', { schema: { body: PASSKEY_FACTOR_BODY, response: responses(STEP_ANSWER) } }, async (request, reply) => {
      const admitted = await admitPasskeyFactor(context, request, 'auth/mfa/passkey');
      const { credential, trustDevice } = passkeyAnswer(request);
      const { answer, trustToken } = await settlePasskeyFactor(context, admitted, credential, trustDevice);
      if (trustToken !== undefined) setTrustCookie(context.config, reply, trustToken);
      return clearCookieWhenFinished(context.config, reply, answer);
    });
  };
}
