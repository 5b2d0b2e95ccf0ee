import { ApiError } from '../errors.ts';
import { SERVER_CHALLENGES } from '../flows/challenges.ts';
import { verifyFactorCode } from '../mfa/factor-flow.ts';
import { amrFor, readProgress, type MfaProgress } from '../mfa/mfa-progress.ts';
import { confirmFactor } from '../store/mfa-factors.ts';
import type { PendingSignIn, SignInDeps } from './pending-sign-in.ts';
import { continueSignIn } from './sign-in-gates.ts';

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
 */
export async function settleSecondFactor(deps: SignInDeps, admitted: Pick<PendingSignIn, 'token' | 'transaction'>, code: string, setup: boolean) {
  const { sign, progress } = mfaSignIn(admitted);
  if (!progress || progress.setup !== setup) throw new ApiError('step.out_of_order');
  const factor = await verifyFactorCode(deps, sign.userId, progress, code);
  if (setup && !(await confirmFactor(deps.db, sign.userId, factor.id, new Date(deps.clock())))) throw new ApiError('step.out_of_order');
  const passed = { mfaPassed: true, amr: amrFor(factor.kind), mfa: null };
  // Recorded with the next move; a sign-in that finishes here ends its transaction (which only this request can claim) instead.
  const transaction = { ...sign.transaction, data: { ...sign.transaction.data, ...passed } };
  const next = await continueSignIn(deps, { ...sign, transaction, record: passed });
  if ('redirect_to' in next && sign.transaction.data.registration === true) return { challenge: SERVER_CHALLENGES.SUCCESS_REGISTRATION, redirect_to: next.redirect_to };
  return next;
}
