import type { FastifyReply } from 'fastify';
import { advanceTransaction, type SignInTransaction } from '../store/transactions.ts';
import type { UserCredentials } from '../store/users.ts';
import type { ApiContext } from './api-context.ts';
import { ApiError } from './errors.ts';
import { finishSignIn } from './finish-sign-in.ts';
import { companyChoice } from './gates/company-choice.ts';
import { passwordFreshness } from './gates/password-freshness.ts';
import { secondFactor } from './gates/second-factor.ts';
import { readAmr } from '../mfa/mfa-progress.ts';

/** A sign-in whose user is known (password, code or link proved it) but which may still owe steps. */
export interface PendingSignIn {
  token: string;
  transaction: SignInTransaction;
  userId: string;
  /** The user's password state, when the step that proved the user has just read it; saves reading it again. */
  credentials?: UserCredentials;
}

/** The challenge a gate answers with, and what the step's screen needs to show it. */
export interface GateAnswer {
  challenge: string;
  parameters?: Record<string, unknown>;
}

/**
 * One thing a user may still owe before being signed in (a fresh password, a second factor, a company choice).
 * It answers a challenge while the debt is open and undefined once it is settled; a step that settles it records
 * that in the transaction's data and calls continueSignIn again.
 */
export type SignInGate = (context: ApiContext, sign: PendingSignIn) => Promise<GateAnswer | undefined>;

/** The gates every sign-in passes, in order. */
export const SIGN_IN_GATES: readonly SignInGate[] = [passwordFreshness, secondFactor, companyChoice];

/**
 * Moves a sign-in on from the step just answered: to the first gate that still has a challenge, or, when every
 * gate is settled, back to the client app. The move is atomic, so of two concurrent answers only one goes on.
 */
export async function continueSignIn(
  context: ApiContext,
  reply: FastifyReply,
  sign: PendingSignIn,
  gates: readonly SignInGate[] = SIGN_IN_GATES,
): Promise<GateAnswer | { redirect_to: string }> {
  const { token, transaction, userId } = sign;
  for (const gate of gates) {
    const answer = await gate(context, sign);
    if (answer === undefined) continue;
    const moved = await advanceTransaction(context.db, token, transaction.challenge, { challenge: answer.challenge, userId });
    if (!moved) throw new ApiError('transaction.missing');
    return answer;
  }
  return finishSignIn(context, reply, { token, challenge: transaction.challenge, interactionUid: transaction.interactionUid, userId, amr: readAmr(transaction) });
}
