import { ApiError } from '../errors.ts';
import { mfaPassed, readAmr } from '../mfa/mfa-progress.ts';
import { releaseAttempt } from '../store/lockouts.ts';
import { advanceTransaction } from '../store/transactions.ts';
import { finishSignIn } from './finish-sign-in.ts';
import { refuseSignIn } from './refuse-sign-in.ts';
import { consentRequestOf } from '../oidc/consent.ts';
import { signInBrowser, signInOrigin } from './sign-in-origin.ts';
import { appConsent } from './gates/app-consent.ts';
import { companyChoice } from './gates/company-choice.ts';
import { firstRecoveryCodes } from './gates/first-recovery-codes.ts';
import { passwordFreshness } from './gates/password-freshness.ts';
import { secondFactor } from './gates/second-factor.ts';
import type { FinishedSignIn, GateAnswer, PendingSignIn, SignInDeps, SignInGate } from './pending-sign-in.ts';

/** The gates every sign-in passes, in order. */
export const SIGN_IN_GATES: readonly SignInGate[] = [passwordFreshness, secondFactor, firstRecoveryCodes, companyChoice, appConsent];

/**
 * Moves a sign-in on from the step just answered: to the first gate that still has a challenge, or, when every
 * gate is settled, back to the client app. The move is atomic, so of two concurrent answers only one goes on.
 */
export async function continueSignIn(
  deps: SignInDeps,
  sign: PendingSignIn,
  gates: readonly SignInGate[] = SIGN_IN_GATES,
): Promise<GateAnswer | FinishedSignIn> {
  const { token, userId } = sign;
  let transaction = sign.transaction;
  let record = sign.record;
  for (const gate of gates) {
    const answer = await gate(deps, { ...sign, transaction }).catch(async (error: unknown) => {
      // A gate that fails (a code that could not be sent) comes before the write that would release a right
      // password's attempt: it is released on its own, so failures the user cannot help never add up to a wait.
      if (sign.releaseAttemptFrom !== undefined) await releaseAttempt(deps.db, userId, sign.releaseAttemptFrom);
      throw error;
    });
    if (answer === undefined) continue;
    if ('refused' in answer) return refuseSignIn(deps, { token, challenge: transaction.challenge, interactionUid: transaction.interactionUid }, answer.refused);
    if ('settled' in answer) {
      // A gate that settles itself (a trusted browser) adds what it settled to the record of the next move.
      record = { ...record, ...answer.settled };
      transaction = { ...transaction, data: { ...transaction.data, ...answer.settled } };
      continue;
    }
    const { record: gateRecord, ...shown } = answer;
    const moved = await advanceTransaction(deps.db, token, transaction.challenge, {
      challenge: answer.challenge,
      userId,
      record: { ...record, ...gateRecord },
      releaseAttemptFrom: sign.releaseAttemptFrom,
    });
    if (!moved) throw new ApiError('transaction.missing');
    return shown;
  }
  return finishSignIn(deps, {
    token,
    challenge: transaction.challenge,
    interactionUid: transaction.interactionUid,
    clientId: transaction.clientId,
    userId,
    amr: readAmr(transaction),
    declinedScopes: consentRequestOf(transaction.data)?.declined ?? [],
    origin: signInOrigin(transaction),
    browserHash: signInBrowser(transaction),
    releaseAttemptFrom: sign.releaseAttemptFrom,
    // Read before the gates ran: a user without a company that chose none has nothing to bind (the company gate
    // settles one only from the user's companies).
    mayHaveCompany: sign.known === undefined || sign.known.company.chosen || sign.known.company.companies.length > 0,
    // Only a factor the account already had, proven now (not a trusted browser, not one just set up), re-authenticates.
    provedFactor: mfaPassed(transaction) && transaction.data.trustedDevice !== true && transaction.data.factorSetUp !== true,
  });
}
