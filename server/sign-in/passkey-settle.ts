/**
 * A passkey at sign-in: proving one as the second factor, setting one up as it, and signing in with one instead of
 * the password. A passkey verified with the user's PIN or biometric counts as both factors.
 */
import { sendSecurityNotice } from '../auth/security-notices.ts';
import { trustBrowser } from '../auth/trusted-devices.ts';
import { ApiError } from '../errors.ts';
import { RECOVERY_CODE_AMR, usedRecoveryCode } from '../mfa/mfa-progress.ts';
import { provePasskey, registerPasskey, signInOwner } from '../mfa/passkeys.ts';
import { markFactorUsed } from '../store/factor-details.ts';
import { recordSecurityEvent } from '../store/security-events.ts';
import { findCredentialsById, findUserById } from '../store/users.ts';
import { mfaSignIn } from './mfa-settle.ts';
import type { FinishedSignIn, GateAnswer, PendingSignIn, SignInDeps } from './pending-sign-in.ts';
import { continueSignIn } from './sign-in-gates.ts';
import { signInOrigin } from './sign-in-origin.ts';
import { registrationSuccess } from './registration-success.ts';

type Admitted = Pick<PendingSignIn, 'token' | 'transaction'>;

/** Moves the sign-in on with its second factor passed; a sign-up's end answers SUCCESS_REGISTRATION. */
async function passSecondFactor(deps: SignInDeps, sign: PendingSignIn, amr: string[], setUp = false): Promise<GateAnswer | FinishedSignIn> {
  const passed = { mfaPassed: true, amr: usedRecoveryCode(sign.transaction) ? [...amr, RECOVERY_CODE_AMR] : amr, mfa: null, ...(setUp ? { factorSetUp: true } : {}) };
  const transaction = { ...sign.transaction, data: { ...sign.transaction.data, ...passed } };
  const next = await continueSignIn(deps, { ...sign, transaction, record: passed });
  return 'redirect_to' in next && sign.transaction.data.registration === true ? registrationSuccess(deps, sign.userId, next) : next;
}

/**
 * "Use a passkey" at the second-factor step: one of the user's passkeys, after the password. With `trustDevice`
 * ("Don't ask for a code on this device"), it also answers the token for the browser's trust cookie; the trust
 * records this passkey, so removing it revokes the trust.
 */
export async function settlePasskeyFactor(
  deps: SignInDeps,
  admitted: Admitted,
  response: unknown,
  trustDevice = false,
): Promise<{ answer: GateAnswer | FinishedSignIn; trustToken?: string }> {
  const { sign, progress } = mfaSignIn(admitted);
  if (progress?.kind !== 'passkey' || progress.setup) throw new ApiError('step.out_of_order');
  const origin = signInOrigin(sign.transaction);
  const proven = await provePasskey(deps, signInOwner(sign.transaction), { response, userId: sign.userId, origin });
  await markFactorUsed(deps.db, proven.factorId, new Date(deps.clock()));
  const amr = ['pwd', 'mfa', ...proven.amr];
  const answer = await passSecondFactor(deps, sign, amr);
  const trustToken = trustDevice
    ? await trustBrowser(deps, { userId: sign.userId, factorId: proven.factorId, amr, origin, transaction: sign.transaction })
    : undefined;
  return { answer, trustToken };
}

/** A passkey set up as the second factor: kept only once the browser's answer verifies, then it counts as proven. */
export async function settlePasskeySetup(deps: SignInDeps, admitted: Admitted, response: unknown, name: string): Promise<GateAnswer | FinishedSignIn> {
  const { sign, progress } = mfaSignIn(admitted);
  if (progress?.kind !== 'passkey' || !progress.setup) throw new ApiError('step.out_of_order');
  const { amr } = await registerPasskey(deps, signInOwner(sign.transaction), { userId: sign.userId, response, name });
  const origin = signInOrigin(sign.transaction);
  await recordSecurityEvent(deps.db, { userId: sign.userId, kind: 'factor_added', at: new Date(deps.clock()), ...origin, detail: { factor_kind: 'passkey' } });
  const user = await findUserById(deps.db, sign.userId);
  if (user) await sendSecurityNotice(deps, { user, kind: 'factor_added', origin });
  return passSecondFactor(deps, sign, ['pwd', 'mfa', ...amr], true);
}

/**
 * "Sign in with a passkey": a passkey the browser offered, without the password. Verified by the user (the library
 * requires it), it counts as both factors; the other gates (password freshness, company) still apply.
 */
export async function signInWithPasskey(deps: SignInDeps, admitted: Admitted, response: unknown): Promise<GateAnswer | FinishedSignIn> {
  const { token, transaction } = admitted;
  const origin = signInOrigin(transaction);
  const proven = await provePasskey(deps, signInOwner(transaction), { response, origin });
  const credentials = await findCredentialsById(deps.db, proven.userId);
  // A disabled account, or one an operator sent through password recovery, cannot skip that with a passkey.
  if (!credentials || credentials.disabled || credentials.resetRequired || !proven.userVerified) {
    await recordSecurityEvent(deps.db, { userId: proven.userId, kind: 'sign_in_failed', at: new Date(deps.clock()), ...origin, detail: { reason: 'passkey_refused' } });
    throw new ApiError('passkey.invalid');
  }
  await markFactorUsed(deps.db, proven.factorId, new Date(deps.clock()));
  const passed = { mfaPassed: true, amr: [...proven.amr, 'mfa'], mfa: null };
  const signedIn = { ...transaction, userId: proven.userId, data: { ...transaction.data, ...passed } };
  return continueSignIn(deps, { token, transaction: signedIn, userId: proven.userId, credentials, record: passed });
}
