import { markEmailVerified } from '../store/email-verification.ts';
import { recordRefusal, type RefusalDeps } from '../auth/refused-sign-in.ts';
import { sharedDeviceHint } from '../auth/trusted-devices.ts';
import { LIMITS } from '../limits.ts';
import { ApiError, catalogueProblem } from '../errors.ts';
import { SERVER_CHALLENGES } from '../flows/challenges.ts';
import type { Services } from '../services.ts';
import type { GateAnswer, PendingSignIn } from '../sign-in/pending-sign-in.ts';
import { findClientInfo } from '../store/clients.ts';
import { attemptTotpStep, createPendingFactor, findFactor, type FactorKind, type MfaFactor } from '../store/mfa-factors.ts';
import { findUserById } from '../store/users.ts';
import { codePurpose, sendFactorCode, type CodeDeps } from './code-factor.ts';
import { smsAllowed } from './factor-choices.ts';
import type { MfaProgress } from './mfa-progress.ts';
import { recoveryCodeHint } from './recovery-code-hint.ts';
import { authenticationOptions, registrationOptions, signInOwner } from './passkeys.ts';
import { matchTotpStep, newTotpSecret, totpIssuer, totpUri } from './totp.ts';

/** The sealed-box context of TOTP secrets, so a sealed secret cannot be moved to another column or purpose. */
export const TOTP_SEAL_CONTEXT = 'mfa-totp-secret';

/** The catalogue's words for a wrong authenticator code: enter the current one, check the phone's clock. */
const TOTP_CODE_INVALID = 'mfaTotp.codeInvalid';
/** A right authenticator code already used (at sign-in, a moment ago): the next one is the way on. */
const TOTP_CODE_USED = 'mfaTotp.codeUsed';

/** What putting a factor to work uses: sending its code, or opening its sealed authenticator secret. */
export type FactorDeps = CodeDeps & Pick<Services, 'box'>;

/** What the authenticator setup screen shows: the secret, its otpauth:// URI and issuer; never in the route. */
async function totpSetupParameters(deps: Pick<Services, 'db' | 'box'>, sign: PendingSignIn, factor: MfaFactor): Promise<Record<string, unknown>> {
  const user = await findUserById(deps.db, sign.userId);
  if (!user || !factor.secretSealed) throw new ApiError('transaction.missing');
  const secret = deps.box.open(factor.secretSealed, TOTP_SEAL_CONTEXT);
  const issuer = totpIssuer((await findClientInfo(deps.db, sign.transaction.clientId))?.name);
  return { mfa_code: factor.id, secret, issuer, account: user.email, otpauth_uri: totpUri(secret, issuer, user.email) };
}

/**
 * Puts a confirmed factor (or one being set up) to work: sends its code, or asks for the app's code. The answer
 * records the factor in progress, for the caller's move to its challenge.
 */
export async function startFactor(deps: FactorDeps, sign: PendingSignIn, factor: MfaFactor, setup: boolean): Promise<GateAnswer> {
  const progress: MfaProgress = { kind: factor.kind, factorId: factor.id, setup };
  const answer = await factorAnswer(deps, sign, factor, setup);
  if (setup) return { ...answer, record: { mfa: progress } };
  return { ...answer, parameters: { ...answer.parameters, ...(await recoveryCodeHint(deps.db, sign)) }, record: { mfa: progress } };
}

async function factorAnswer(deps: FactorDeps, sign: PendingSignIn, factor: MfaFactor, setup: boolean): Promise<GateAnswer> {
  if (factor.kind === 'passkey') {
    const options = await authenticationOptions(deps, signInOwner(sign.transaction), sign.userId);
    return { challenge: SERVER_CHALLENGES.PASSKEY_MFA, parameters: { passkey: { ceremony: 'get', options }, ...sharedDeviceHint(sign.transaction) } };
  }
  const registration = { ...(sign.transaction.data.registration === true ? { registration: true } : {}), ...sharedDeviceHint(sign.transaction) };
  if (factor.kind === 'totp') {
    if (!setup) return { challenge: SERVER_CHALLENGES.SOFTWARE_TOKEN_MFA, parameters: sharedDeviceHint(sign.transaction) };
    return { challenge: SERVER_CHALLENGES.SETUP_SOFTWARE_TOKEN_MFA, parameters: { ...(await totpSetupParameters(deps, sign, factor)), ...registration } };
  }
  const parameters = { ...(await sendFactorCode(deps, factor, setup)), ...registration };
  if (factor.kind === 'email') return { challenge: SERVER_CHALLENGES.EMAIL_MFA, parameters };
  return { challenge: setup ? SERVER_CHALLENGES.VERIFY_SETUP_SMS_MFA : SERVER_CHALLENGES.SMS_MFA, parameters };
}

/** The passkey setup: the options for the browser to create one; nothing is kept until the browser's answer verifies. */
async function passkeySetup(deps: FactorDeps, sign: PendingSignIn): Promise<GateAnswer> {
  const user = await findUserById(deps.db, sign.userId);
  if (!user) throw new ApiError('transaction.missing');
  const options = await registrationOptions(deps, signInOwner(sign.transaction), user);
  const registration = sign.transaction.data.registration === true ? { registration: true } : {};
  const progress: MfaProgress = { kind: 'passkey', factorId: '', setup: true };
  return { challenge: SERVER_CHALLENGES.SETUP_PASSKEY_MFA, parameters: { passkey: { ceremony: 'create', options }, ...registration }, record: { mfa: progress } };
}

/** The setup screen of the factor in progress again (a reload of the authenticator or passkey setup). */
export async function setupAgain(deps: FactorDeps, sign: PendingSignIn, progress: MfaProgress): Promise<GateAnswer> {
  if (progress.kind === 'passkey') {
    const { record: _progress, ...answer } = await passkeySetup(deps, sign);
    return answer;
  }
  const factor = await findFactor(deps.db, sign.userId, progress.factorId);
  if (!factor || factor.kind !== 'totp' || factor.confirmed) throw new ApiError('step.out_of_order');
  const registration = { ...(sign.transaction.data.registration === true ? { registration: true } : {}), ...sharedDeviceHint(sign.transaction) };
  return { challenge: SERVER_CHALLENGES.SETUP_SOFTWARE_TOKEN_MFA, parameters: { ...(await totpSetupParameters(deps, sign, factor)), ...registration } };
}

/** A phone number as E.164 ("+49 151 1234-5678" → "+4915112345678"), or undefined when it cannot be one. */
export function normalizePhone(input: string): string | undefined {
  const compact = input.replace(/[\s().-]/g, '');
  return /^\+[1-9]\d{7,14}$/.test(compact) ? compact : undefined;
}

/** Starts setting up a factor of `kind`; SMS first asks for the number (`phone` on the second call). */
export async function beginSetup(deps: FactorDeps, sign: PendingSignIn, kind: FactorKind, phone?: string): Promise<GateAnswer> {
  const registration = sign.transaction.data.registration === true ? { registration: true } : {};
  if (kind === 'sms' && phone === undefined) return { challenge: SERVER_CHALLENGES.SETUP_SMS_MFA, parameters: registration };
  if (kind === 'passkey') return passkeySetup(deps, sign);
  const user = await findUserById(deps.db, sign.userId);
  if (!user) throw new ApiError('transaction.missing');
  const input =
    kind === 'totp'
      ? { userId: sign.userId, kind, secretSealed: deps.box.seal(newTotpSecret(), TOTP_SEAL_CONTEXT) }
      : { userId: sign.userId, kind, phone: kind === 'sms' ? phone : undefined };
  const id = await createPendingFactor(deps.db, input);
  const factor = await findFactor(deps.db, sign.userId, id);
  if (!factor) throw new ApiError('transaction.missing');
  return startFactor(deps, sign, factor, true);
}

/** A wrong authenticator code of a signed-in factor is recorded, and its owner mailed when the rest starts, as for passwords. */
async function recordWrongTotp(deps: RefusalDeps, userId: string, failures: number, now: Date): Promise<void> {
  const user = await findUserById(deps.db, userId);
  if (!user) return;
  await recordRefusal(deps, { userId, email: user.email, reason: 'wrong_authenticator_code', failures, origin: { at: now } });
}

/**
 * Checks an authenticator code: the step must match and be claimed (never used before), under the rest rule. One
 * statement holds the factor's row, so parallel guesses cannot all slip in under the limit.
 */
async function verifyTotp(deps: Pick<Services, 'db' | 'box' | 'mailer' | 'config'>, factor: MfaFactor, code: string, now: Date): Promise<void> {
  const secretSealed = factor.secretSealed;
  if (!secretSealed) throw new ApiError('code.invalid');
  // Only a code matching no step is a guess; a used one (a replay, or a double submit) is refused without counting.
  const step = matchTotpStep(deps.box.open(secretSealed, TOTP_SEAL_CONTEXT), code, now.getTime());
  const rest = { max: LIMITS.TOTP_MAX_FAILURES, lockoutSeconds: LIMITS.TOTP_LOCKOUT, forgottenAfter: LIMITS.LOGIN_FAILURES_FORGOTTEN_AFTER };
  const attempt = await attemptTotpStep(deps.db, factor.id, step, now, rest);
  if (attempt.restingSeconds > 0) throw new ApiError('mfa.totp_resting', undefined, { retryAfter: attempt.restingSeconds });
  if (attempt.failures !== undefined && factor.confirmed) await recordWrongTotp(deps, factor.userId, attempt.failures, now);
  // An authenticator makes a new code every 30 s by itself: "ask for a new one" would be impossible advice.
  if (!attempt.claimed) throw new ApiError('code.invalid', catalogueProblem(step === undefined ? TOTP_CODE_INVALID : TOTP_CODE_USED));
}

/** A factor proven by a code (every kind but a passkey). */
export type CodeFactor = MfaFactor & { kind: Exclude<FactorKind, 'passkey'> };

const isCodeFactor = (factor: MfaFactor): factor is CodeFactor => factor.kind !== 'passkey';

/**
 * Checks the code for the factor in progress; throws the API's error when it is wrong, used up or over its tries.
 * A right authenticator code notes its factor as used; other factors' callers note it (markFactorUsed). `read` is
 * the factor when the caller has just read it (undefined for none).
 */
export async function verifyFactorCode(
  deps: Pick<Services, 'db' | 'box' | 'clock' | 'codes' | 'flags' | 'mailer' | 'config'>,
  userId: string,
  progress: MfaProgress,
  code: string,
  read?: { factor: MfaFactor | undefined },
): Promise<CodeFactor> {
  const factor = read ? read.factor : await findFactor(deps.db, userId, progress.factorId);
  // A passkey is proven by its own ceremony, never by a code.
  if (!factor || factor.confirmed === progress.setup || !isCodeFactor(factor)) throw new ApiError('step.out_of_order');
  if (factor.kind === 'sms' && !smsAllowed(deps)) throw new ApiError('mfa.method_unavailable');
  const now = new Date(deps.clock());
  if (factor.kind === 'totp') {
    await verifyTotp(deps, factor, code, now);
    return factor;
  }
  const purpose = codePurpose(progress);
  const outcome = await deps.codes.redeem(userId, purpose, code, now);
  if (outcome === 'too_many_attempts') throw new ApiError('code.too_many_attempts', undefined, { retryAfter: await deps.codes.restingFor(userId, purpose, now) });
  if (outcome === 'invalid') throw new ApiError('code.invalid');
  // An emailed code goes to the account's address: entering it proved the address.
  if (factor.kind === 'email') await markEmailVerified(deps.db, userId, now);
  return factor;
}
