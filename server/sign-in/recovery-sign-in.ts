import { recoveryCodeDeps, redeemRecoveryCode } from '../auth/recovery-codes.ts';
import { sendSecurityNotice } from '../auth/security-notices.ts';
import { ApiError } from '../errors.ts';
import { recordSecurityEvent } from '../store/security-events.ts';
import { findUserById } from '../store/users.ts';
import { signInOrigin } from './sign-in-origin.ts';
import { mfaPassed, usedRecoveryCode } from '../mfa/mfa-progress.ts';
import { recordInTransaction } from '../store/transactions.ts';
import { mfaSignIn } from './mfa-settle.ts';
import type { PendingSignIn, SignInDeps } from './pending-sign-in.ts';
import { continueSignIn } from './sign-in-gates.ts';

/**
 * A recovery code in place of the second factor: it is spent atomically (exactly one of any number of concurrent
 * uses wins), then the sign-in goes on to set up a new factor, which the second-factor gate asks for next.
 */
export async function settleWithRecoveryCode(deps: SignInDeps, admitted: Pick<PendingSignIn, 'token' | 'transaction'>, code: string) {
  const { sign } = mfaSignIn(admitted);
  if (mfaPassed(sign.transaction) || usedRecoveryCode(sign.transaction)) throw new ApiError('step.out_of_order');
  const outcome = await redeemRecoveryCode(recoveryCodeDeps(deps), sign.userId, code, new Date(deps.clock()));
  if (outcome.kind === 'too_many_attempts') throw new ApiError('code.too_many_attempts', undefined, { retryAfter: outcome.retryAfter });
  if (outcome.kind === 'invalid') throw new ApiError('code.invalid');
  const origin = signInOrigin(sign.transaction);
  await recordSecurityEvent(deps.db, { userId: sign.userId, kind: 'recovery_code_used', at: new Date(deps.clock()), ...origin });
  const user = await findUserById(deps.db, sign.userId);
  if (user) await sendSecurityNotice(deps, { user, kind: 'recovery_code_used', origin });
  const used = { recoveryCodeUsed: true, mfa: null };
  if (!(await recordInTransaction(deps.db, sign.token, sign.transaction.challenge, used))) throw new ApiError('transaction.missing');
  return continueSignIn(deps, { ...sign, transaction: { ...sign.transaction, data: { ...sign.transaction.data, ...used } } });
}
