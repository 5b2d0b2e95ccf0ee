import { generateFirstRecoveryCodes, recoveryCodeDeps } from '../auth/recovery-codes.ts';
import { SERVER_CHALLENGES } from '../flows/challenges.ts';
import type { Services } from '../services.ts';
import { confirmedFactors } from '../store/mfa-factors.ts';
import { recoveryCodesLeft } from '../store/recovery-codes.ts';
import type { FinishedSignIn } from './pending-sign-in.ts';

/**
 * The end of a sign-up: SUCCESS_REGISTRATION with the way back to the app. A new account with a second factor and
 * no recovery codes yet gets its first set here, right after the factor was set up, shown once on the success
 * screen (the help page tells a person who lost their phone to use "the recovery codes you saved when you set up
 * your second step"). Made after the sign-in finished, so a failed finish leaves no codes nobody saw.
 */
export async function registrationSuccess(deps: Pick<Services, 'db' | 'box' | 'clock'>, userId: string, finished: FinishedSignIn) {
  const success = { challenge: SERVER_CHALLENGES.SUCCESS_REGISTRATION, redirect_to: finished.redirect_to };
  if ((await confirmedFactors(deps.db, userId)).length === 0) return success;
  if ((await recoveryCodesLeft(deps.db, userId)).createdAt !== undefined) return success;
  const codes = await generateFirstRecoveryCodes(recoveryCodeDeps(deps), userId, new Date(deps.clock()));
  if (!codes) return success;
  return { ...success, parameters: { recovery_codes: codes } };
}
