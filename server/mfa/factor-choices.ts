import { maskEmail, maskPhone } from '../mask.ts';
import type { Services } from '../services.ts';
import { confirmedFactors, type FactorKind, type MfaFactor } from '../store/mfa-factors.ts';
import { findUserById } from '../store/users.ts';

/** One entry of `availableChoices`: a factor kind, and where its codes go (masked) when it has a destination. */
export interface FactorChoice {
  type: FactorKind;
  destination?: string;
}

/** Whether SMS may be used at all: the `sms-mfa-disable` flag removes it everywhere, on the server. */
export function smsAllowed(deps: Pick<Services, 'flags'>): boolean {
  return !deps.flags.isOn('sms-mfa-disable');
}

/**
 * The user's confirmed factors that may be used now (SMS drops out while its flag is on). Several passkeys are one
 * way to sign in (the browser offers them all), so only the first stands for them. `confirmed` is the user's
 * confirmed factors when the caller has just read them.
 */
export async function usableFactors(deps: Pick<Services, 'db' | 'flags'>, userId: string, confirmed?: readonly MfaFactor[]): Promise<MfaFactor[]> {
  const factors = confirmed ?? (await confirmedFactors(deps.db, userId));
  return factors.filter((factor, index) => (factor.kind !== 'sms' || smsAllowed(deps)) && (factor.kind !== 'passkey' || factors.findIndex((other) => other.kind === 'passkey') === index));
}

/** The kinds a user may set up. */
export function setupKinds(deps: Pick<Services, 'flags'>): FactorKind[] {
  return smsAllowed(deps) ? ['email', 'sms', 'totp', 'passkey'] : ['email', 'totp', 'passkey'];
}

/** What the setup screen offers: every kind allowed, the email one naming the (masked) address. */
export async function setupChoices(deps: Pick<Services, 'db' | 'flags'>, userId: string): Promise<FactorChoice[]> {
  const user = await findUserById(deps.db, userId);
  return setupKinds(deps).map((type) => (type === 'email' && user ? { type, destination: maskEmail(user.email) } : { type }));
}

/** What the sign-in choice offers: the user's usable factors, each with its masked destination. */
export async function signInChoices(deps: Pick<Services, 'db'>, userId: string, factors: readonly MfaFactor[]): Promise<FactorChoice[]> {
  const user = await findUserById(deps.db, userId);
  return factors.map((factor): FactorChoice => {
    if (factor.kind === 'email' && user) return { type: 'email', destination: maskEmail(user.email) };
    if (factor.kind === 'sms' && factor.phone) return { type: 'sms', destination: maskPhone(factor.phone) };
    return { type: factor.kind };
  });
}
