import { SERVER_CHALLENGES } from '../../flows/challenges.ts';
import { setupChoices, signInChoices, usableFactors } from '../../mfa/factor-choices.ts';
import { startFactor, type FactorDeps } from '../../mfa/factor-flow.ts';
import { mfaPassed, usedRecoveryCode } from '../../mfa/mfa-progress.ts';
import type { Services } from '../../services.ts';
import { trustedSecondFactor } from '../../auth/trusted-devices.ts';
import type { GateAnswer, GateSettled, PendingSignIn } from '../pending-sign-in.ts';

/**
 * A user with a second factor proves it; one with several picks which. A user without one sets one up first while
 * MFA_REQUIRED is on (the default). A browser the user trusted skips it. The `mfa-disable-skip-registration` flag skips all of it, on the server.
 */
export async function secondFactor(deps: FactorDeps & Pick<Services, 'flags'>, sign: PendingSignIn): Promise<GateAnswer | GateSettled | undefined> {
  if (mfaPassed(sign.transaction) || deps.flags.isOn('mfa-disable-skip-registration')) return undefined;
  // A browser the user trusted stands in for the factor proven when the trust was made (the password still counted).
  const trusted = usedRecoveryCode(sign.transaction) ? undefined : await trustedSecondFactor(deps, sign.userId, sign.transaction);
  if (trusted) return { settled: { mfaPassed: true, amr: trusted, mfa: null, trustedDevice: true } };
  // A recovery code stood in for a lost factor: the person sets up a new one before going on.
  if (usedRecoveryCode(sign.transaction)) {
    return { challenge: SERVER_CHALLENGES.MFA_SETUP, parameters: { availableChoices: await setupChoices(deps, sign.userId), registration: false } };
  }
  const factors = await usableFactors(deps, sign.userId, sign.known?.factors);
  const [only] = factors;
  if (only && factors.length === 1) return startFactor(deps, sign, only, false);
  if (factors.length > 1) {
    return { challenge: SERVER_CHALLENGES.SELECT_MFA_TYPE, parameters: { availableChoices: await signInChoices(deps, sign.userId, factors) } };
  }
  if (!deps.config.mfaRequired) return undefined;
  return {
    challenge: SERVER_CHALLENGES.MFA_SETUP,
    parameters: { availableChoices: await setupChoices(deps, sign.userId), registration: sign.transaction.data.registration === true },
  };
}
