import { generateFirstRecoveryCodes, recoveryCodeDeps } from '../../auth/recovery-codes.ts';
import { SERVER_CHALLENGES } from '../../flows/challenges.ts';
import type { Services } from '../../services.ts';
import { recoveryCodesLeft } from '../../store/recovery-codes.ts';
import type { GateAnswer, PendingSignIn } from '../pending-sign-in.ts';

/** What the transaction records once the person pressed "I've saved my codes" (server/api/recovery-code-routes.ts). */
export const RECOVERY_CODES_SAVED = 'recoveryCodesSaved';

/**
 * A second factor set up during this sign-in leaves the person with recovery codes, as the help page promises: an account
 * without a live code gets its set here, shown once, before the sign-in goes on. An account that still has live codes keeps
 * them (a new set would silently void the sheet the person saved, which GitHub and Google never do either); a sign-up
 * shows its set on "Congratulations" instead (registration-success.ts). Once made, the codes are live, so running the
 * gate again (the person went Back) asks nothing: the codes are never shown twice.
 */
export async function firstRecoveryCodes(deps: Pick<Services, 'db' | 'box' | 'clock'>, sign: PendingSignIn): Promise<GateAnswer | undefined> {
  const { data } = sign.transaction;
  if (data.factorSetUp !== true || data.registration === true || data[RECOVERY_CODES_SAVED] === true) return undefined;
  if ((await recoveryCodesLeft(deps.db, sign.userId)).left > 0) return undefined;
  const codes = await generateFirstRecoveryCodes(recoveryCodeDeps(deps), sign.userId, new Date(deps.clock()));
  if (!codes) return undefined;
  return { challenge: SERVER_CHALLENGES.SAVE_RECOVERY_CODES, parameters: { recovery_codes: codes } };
}
