/**
 * Email codes chosen as the second factor during a sign-up: the registration code proved the address moments before,
 * so a second code would prove nothing new. The factor is set up at once and the sign-in moves on.
 */
import { sendSecurityNotice } from '../auth/security-notices.ts';
import { amrFor } from '../mfa/mfa-progress.ts';
import { recordSecurityEvent } from '../store/security-events.ts';
import { confirmFactor, createPendingFactor } from '../store/mfa-factors.ts';
import { findUserById } from '../store/users.ts';
import { ApiError } from '../errors.ts';
import type { FinishedSignIn, GateAnswer, PendingSignIn, SignInDeps } from './pending-sign-in.ts';
import { continueSignIn } from './sign-in-gates.ts';
import { signInOrigin } from './sign-in-origin.ts';
import { registrationSuccess } from './registration-success.ts';

/** Whether `kind`, chosen at `sign`'s setup step, is the address its sign-up has just verified. */
export function isVerifiedSignUpEmail(sign: PendingSignIn, kind: string): boolean {
  return kind === 'email' && sign.transaction.data.registration === true;
}

/** Sets up email codes for the new account without a code, and answers where the sign-up goes next. */
export async function settleVerifiedEmail(deps: SignInDeps, sign: PendingSignIn): Promise<GateAnswer | FinishedSignIn> {
  const now = new Date(deps.clock());
  const factorId = await createPendingFactor(deps.db, { userId: sign.userId, kind: 'email' });
  if (!(await confirmFactor(deps.db, sign.userId, factorId, now))) throw new ApiError('step.out_of_order');
  const origin = signInOrigin(sign.transaction);
  await recordSecurityEvent(deps.db, { userId: sign.userId, kind: 'factor_added', at: now, ...origin, detail: { factor_kind: 'email' } });
  const user = await findUserById(deps.db, sign.userId);
  if (user) await sendSecurityNotice(deps, { user, kind: 'factor_added', origin });
  const passed = { mfaPassed: true, amr: amrFor('email'), mfa: null };
  const transaction = { ...sign.transaction, data: { ...sign.transaction.data, ...passed } };
  const next = await continueSignIn(deps, { ...sign, transaction, record: passed });
  return 'redirect_to' in next ? registrationSuccess(deps, sign.userId, next) : next;
}
