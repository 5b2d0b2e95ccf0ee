import { SERVER_CHALLENGES } from '../../flows/challenges.ts';
import { setupChoices, signInChoices, usableFactors } from '../../mfa/factor-choices.ts';
import { startFactor, type FactorDeps } from '../../mfa/factor-flow.ts';
import { mfaPassed, usedRecoveryCode } from '../../mfa/mfa-progress.ts';
import type { Services } from '../../services.ts';
import { readSignInTrust, trustedSecondFactor } from '../../auth/trusted-devices.ts';
import type { GateAnswer, GateRefusal, GateSettled, PendingSignIn } from '../pending-sign-in.ts';
import { ACR, acrOf } from '../../oidc/acr.ts';
import { readAmr } from '../../mfa/mfa-progress.ts';
import { recoveryCodeHint } from '../../mfa/recovery-code-hint.ts';
import { recoverySetupAnswer, removeLostFactors } from '../lost-factors.ts';

/** What the client app is told when the person cannot reach the phishing-resistant level it asked for. */
const NO_PASSKEY: GateRefusal = {
  refused: { error: 'unmet_authentication_requirements', description: 'the sign-in asked for a passkey, and the person proved none' },
};

/**
 * The phishing-resistant level (`acr`): only a passkey proven in this sign-in reaches it. A sign-in that proved one
 * (passwordless, or after the password) is done; a person with a passkey is asked for it (a trusted browser does not
 * stand in); one without a passkey, or who proved another factor instead, ends with unmet_authentication_requirements.
 */
async function passkeyFactor(deps: FactorDeps & Pick<Services, 'flags'>, sign: PendingSignIn): Promise<GateAnswer | GateRefusal | undefined> {
  if (mfaPassed(sign.transaction)) return acrOf(readAmr(sign.transaction)) === ACR.phishingResistant ? undefined : NO_PASSKEY;
  const passkey = (await usableFactors(deps, sign.userId, sign.known?.factors)).find((factor) => factor.kind === 'passkey');
  return passkey ? startFactor(deps, sign, passkey, false) : NO_PASSKEY;
}

/**
 * A user with a second factor proves it; one with several picks which, unless one is their default. A user without one sets one up first while
 * MFA_REQUIRED is on (the default), or the client asked for a second-factor level (acr). A browser the user trusted skips it. The `mfa-disable-skip-registration` flag skips all of it, on the server.
 */
export async function secondFactor(deps: FactorDeps & Pick<Services, 'flags'>, sign: PendingSignIn): Promise<GateAnswer | GateSettled | GateRefusal | undefined> {
  const trust = readSignInTrust(sign.transaction);
  if (trust.passkeyRequired === true) return passkeyFactor(deps, sign);
  // A client that asked for a second-factor level (acr) gets one proven, whatever the flags and MFA_REQUIRED say.
  const required = trust.secondFactorRequired === true;
  if (mfaPassed(sign.transaction)) {
    // A recovery code's sign-in has now proven its new factor: the factors the person marked lost can go.
    if (usedRecoveryCode(sign.transaction)) await removeLostFactors(deps, sign);
    return undefined;
  }
  if (!required && deps.flags.isOn('mfa-disable-skip-registration')) return undefined;
  // A browser the user trusted stands in for the factor proven when the trust was made (the password still counted).
  const trusted = usedRecoveryCode(sign.transaction) ? undefined : await trustedSecondFactor(deps, sign.userId, sign.transaction);
  if (trusted) return { settled: { mfaPassed: true, amr: trusted, mfa: null, trustedDevice: true } };
  // A recovery code stood in for a lost factor: the person sets up a new one before going on.
  if (usedRecoveryCode(sign.transaction)) return recoverySetupAnswer(deps, sign.userId);
  const factors = await usableFactors(deps, sign.userId, sign.known?.factors);
  // The only factor, or the one the person made the default, is asked for at once; its step offers the others.
  const first = factors.length === 1 ? factors[0] : factors.find((factor) => factor.isDefault);
  if (first) return startFactor(deps, sign, first, false);
  if (factors.length > 1) {
    const parameters = { availableChoices: await signInChoices(deps, sign.userId, factors), ...(await recoveryCodeHint(deps.db, sign)) };
    return { challenge: SERVER_CHALLENGES.SELECT_MFA_TYPE, parameters };
  }
  if (!deps.config.mfaRequired && !required) return undefined;
  return {
    challenge: SERVER_CHALLENGES.MFA_SETUP,
    parameters: { availableChoices: await setupChoices(deps, sign.userId), registration: sign.transaction.data.registration === true },
  };
}
