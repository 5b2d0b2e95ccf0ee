import { generateRecoveryCodes, recoveryCodeDeps, recoveryCodeStatus } from '../auth/recovery-codes.ts';
import type { Services } from '../services.ts';
import { requireStepUp, type AccountFactorDeps } from './account-factors.ts';
import type { AccountCaller } from './account-token.ts';

/** How many recovery codes are left, when the set was made, and whether to warn. */
export async function recoveryCodeSummary(deps: Pick<Services, 'db'>, caller: AccountCaller) {
  return recoveryCodeStatus(deps.db, caller.userId);
}

/** A new set of recovery codes (after a step-up): the old set dies; the codes are shown this once. */
export async function newRecoveryCodes(deps: AccountFactorDeps, caller: AccountCaller) {
  await requireStepUp(deps, caller);
  const codes = await generateRecoveryCodes(recoveryCodeDeps(deps), caller.userId, new Date(deps.clock()));
  return { codes, ...(await recoveryCodeStatus(deps.db, caller.userId)) };
}
