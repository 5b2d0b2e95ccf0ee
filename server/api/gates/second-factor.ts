import { SERVER_CHALLENGES } from '../../flows/challenges.ts';
import { setupChoices, signInChoices, usableFactors } from '../../mfa/factor-choices.ts';
import { startFactor } from '../../mfa/factor-flow.ts';
import { mfaPassed } from '../../mfa/mfa-progress.ts';
import type { SignInGate } from '../sign-in-gates.ts';

/**
 * A user with a second factor proves it; one with several picks which. A user without one sets one up first while
 * MFA_REQUIRED is on (the default). The `mfa-disable-skip-registration` flag skips all of it, on the server.
 */
export const secondFactor: SignInGate = async (context, sign) => {
  if (mfaPassed(sign.transaction) || context.flags.isOn('mfa-disable-skip-registration')) return undefined;
  const factors = await usableFactors(context, sign.userId);
  const [only] = factors;
  if (only && factors.length === 1) return startFactor(context, sign, only, false);
  if (factors.length > 1) {
    return { challenge: SERVER_CHALLENGES.SELECT_MFA_TYPE, parameters: { availableChoices: await signInChoices(context, sign.userId, factors) } };
  }
  if (!context.config.mfaRequired) return undefined;
  return {
    challenge: SERVER_CHALLENGES.MFA_SETUP,
    parameters: { availableChoices: await setupChoices(context, sign.userId), registration: sign.transaction.data.registration === true },
  };
};
