import { ApiError } from '../errors.ts';
import { verifyFactorCode } from '../mfa/factor-flow.ts';
import { amrFor, readProgress, RECOVERY_CODE_AMR, usedRecoveryCode, type MfaProgress } from '../mfa/mfa-progress.ts';
import { markFactorUsed } from '../store/factor-details.ts';
import { confirmFactor } from '../store/mfa-factors.ts';
import { sendSecurityNotice } from '../auth/security-notices.ts';
import { trustBrowser } from '../auth/trusted-devices.ts';
import { recordSecurityEvent } from '../store/security-events.ts';
import { readFactorSignIn, type FactorSignIn } from '../store/sign-in-state.ts';
import { findUserById } from '../store/users.ts';
import type { FinishedSignIn, GateAnswer, PendingSignIn, SignInDeps } from './pending-sign-in.ts';
import { continueSignIn } from './sign-in-gates.ts';
import { signInOrigin } from './sign-in-origin.ts';
import { registrationSuccess } from './registration-success.ts';

/** The user and the factor in progress of an admitted MFA step; a sign-in without them is out of order. */
export function mfaSignIn(admitted: Pick<PendingSignIn, 'token' | 'transaction'>): { sign: PendingSignIn; progress: MfaProgress | undefined } {
  const { token, transaction } = admitted;
  if (!transaction.userId) throw new ApiError('step.out_of_order');
  return { sign: { token, transaction, userId: transaction.userId }, progress: readProgress(transaction) };
}

/**
 * Checks the code for the factor in progress (`setup` says which kind of call this is: a setup's calls cannot
 * confirm a sign-in's factor, nor the other way round). A right code confirms a factor being set up, marks the
 * second factor passed with its `amr`, and moves the sign-in on; a sign-up's end answers SUCCESS_REGISTRATION.
 * With `trustDevice` ("Don't ask for a code on this device"), it also answers the token for the browser's trust cookie.
 * `admitted.extra` is the factor in progress as findTransactionWithFactor read it with the transaction, if it did.
 */
export async function settleSecondFactor(
  deps: SignInDeps,
  admitted: Pick<PendingSignIn, 'token' | 'transaction'> & { extra?: FactorSignIn },
  code: string,
  setup: boolean,
  trustDevice = false,
): Promise<{ answer: GateAnswer | FinishedSignIn; trustToken?: string }> {
  const { sign, progress } = mfaSignIn(admitted);
  if (!progress || progress.setup !== setup) throw new ApiError('step.out_of_order');
  // One read for the factor and what the gates after it need (the password's state, the factors, the companies),
  // unless the step read it with the transaction.
  const read = admitted.extra ?? (await readFactorSignIn(deps.db, { userId: sign.userId, factorId: progress.factorId, interactionUid: sign.transaction.interactionUid }));
  const factor = await verifyFactorCode(deps, sign.userId, progress, code, { factor: read?.factor });
  // A claimed authenticator step has noted its factor as used already.
  if (factor.kind !== 'totp') await markFactorUsed(deps.db, factor.id, new Date(deps.clock()));
  if (setup) {
    if (!(await confirmFactor(deps.db, sign.userId, factor.id, new Date(deps.clock())))) throw new ApiError('step.out_of_order');
    const origin = signInOrigin(sign.transaction);
    await recordSecurityEvent(deps.db, { userId: sign.userId, kind: 'factor_added', at: new Date(deps.clock()), ...origin, detail: { factor_kind: factor.kind } });
    const user = await findUserById(deps.db, sign.userId);
    if (user) await sendSecurityNotice(deps, { user, kind: 'factor_added', origin });
  }
  // A sign-in that came through with a recovery code says so in its amr, beside the new factor set up after it.
  const amr = usedRecoveryCode(sign.transaction) ? [...amrFor(factor.kind), RECOVERY_CODE_AMR] : amrFor(factor.kind);
  // A factor set up here proves no more than the password did, so this sign-in is no step-up for the account page.
  const passed = { mfaPassed: true, amr, mfa: null, ...(setup ? { factorSetUp: true } : {}) };
  // Recorded with the next move; a sign-in that finishes here ends its transaction (which only this request can claim) instead.
  const transaction = { ...sign.transaction, data: { ...sign.transaction.data, ...passed } };
  // A factor just set up changed the factors read above: the gates read them again.
  const known = setup ? {} : { credentials: read?.credentials, known: read?.state };
  const next = await continueSignIn(deps, { ...sign, transaction, record: passed, ...known });
  const trustToken = trustDevice
    ? await trustBrowser(deps, { userId: sign.userId, factorId: factor.id, amr: amrFor(factor.kind), origin: signInOrigin(sign.transaction), transaction: sign.transaction })
    : undefined;
  const answer = 'redirect_to' in next && sign.transaction.data.registration === true ? await registrationSuccess(deps, sign.userId, next) : next;
  return { answer, trustToken };
}
