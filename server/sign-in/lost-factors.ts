/**
 * After a recovery code: what the setup screen is told (a code was used, how many are left), the factors the person
 * marked as lost there, and their removal once the new factor is proven.
 */
import { recordAccountChange } from '../account/account-events.ts';
import { SERVER_CHALLENGES } from '../flows/challenges.ts';
import { setupChoices } from '../mfa/factor-choices.ts';
import type { FactorDeps } from '../mfa/factor-flow.ts';
import type { Services } from '../services.ts';
import { recoveryCodesLeft } from '../store/recovery-codes.ts';
import { deleteFactor } from '../store/factor-details.ts';
import { confirmedFactors } from '../store/mfa-factors.ts';
import { revokeTrustedDevicesMadeWith } from '../store/trusted-devices.ts';
import type { SignInTransaction } from '../store/transactions.ts';
import type { GateAnswer, PendingSignIn } from './pending-sign-in.ts';
import { signInOrigin } from './sign-in-origin.ts';

/** The setup screen after a recovery code: the kinds to set up, and how many codes are left, to say what happened. */
export async function recoverySetupAnswer(deps: Pick<Services, 'db' | 'flags' | 'config'>, userId: string): Promise<GateAnswer> {
  const parameters = { availableChoices: await setupChoices(deps, userId), registration: false, recovery_codes_left: (await recoveryCodesLeft(deps.db, userId)).left };
  return { challenge: SERVER_CHALLENGES.MFA_SETUP, parameters };
}

/**
 * What the setup choice records about the factors the person has now: with "remove the lost ones" ticked, their ids
 * (removed only once the new factor is proven, so the account is never left without one); unticked, none.
 */
export async function lostFactorsRecord(deps: Pick<Services, 'db'>, userId: string, removeLost: boolean): Promise<{ lostFactors: string[] | null }> {
  return { lostFactors: removeLost ? (await confirmedFactors(deps.db, userId)).map((factor) => factor.id) : null };
}

const lostFactorIds = (transaction: SignInTransaction): string[] => {
  const value = transaction.data.lostFactors;
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
};

/**
 * Removes the factors marked lost, now that the new one is proven in this sign-in: that proof is the step-up the
 * account page would ask for, and the new factor keeps the account from having none. Each removal is told to the
 * owner as on the account page. Run again by a later gate, it finds them gone and does nothing.
 */
export async function removeLostFactors(deps: FactorDeps, sign: PendingSignIn): Promise<void> {
  for (const factorId of lostFactorIds(sign.transaction)) {
    const factor = (await confirmedFactors(deps.db, sign.userId)).find((candidate) => candidate.id === factorId);
    if (!factor || (await deleteFactor(deps.db, sign.userId, factorId, true)) !== 'removed') continue;
    await revokeTrustedDevicesMadeWith(deps.db, sign.userId, factorId);
    const change = { userId: sign.userId, kind: 'factor_removed' as const, origin: signInOrigin(sign.transaction), detail: { factor_kind: factor.kind } };
    await recordAccountChange(deps, change);
  }
}
