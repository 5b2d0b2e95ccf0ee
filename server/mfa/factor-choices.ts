import { maskEmail, maskPhone } from '../mask.ts';
import { passkeysPossible } from './passkey-host.ts';
import type { Services } from '../services.ts';
import { confirmedFactors, type FactorKind, type MfaFactor } from '../store/mfa-factors.ts';
import { findUserById } from '../store/users.ts';

/** One entry of `availableChoices`: a factor kind, where its codes go (masked) when it has a destination, and its name. */
export interface FactorChoice {
  type: FactorKind;
  destination?: string;
  /** The name the person gave the factor; a passkey's only while it is their one passkey (the choice stands for all). */
  name?: string;
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
export async function usableFactors(deps: Pick<Services, 'db' | 'flags' | 'config'>, userId: string, confirmed?: readonly MfaFactor[]): Promise<MfaFactor[]> {
  const factors = confirmed ?? (await confirmedFactors(deps.db, userId));
  const allowed = allowedKinds(deps);
  return factors.filter((factor, index) => allowed.includes(factor.kind) && (factor.kind !== 'passkey' || factors.findIndex((other) => other.kind === 'passkey') === index));
}

/** The kinds that may be used here: SMS while its flag allows it, passkeys where the public host can have them. */
function allowedKinds(deps: Pick<Services, 'flags' | 'config'>): FactorKind[] {
  const kinds: FactorKind[] = ['email', 'sms', 'totp', 'passkey'];
  return kinds.filter((kind) => (kind !== 'sms' || smsAllowed(deps)) && (kind !== 'passkey' || passkeysPossible(deps.config)));
}

/** The kinds a user may set up. */
export function setupKinds(deps: Pick<Services, 'flags' | 'config'>): FactorKind[] {
  return allowedKinds(deps);
}

/** What the setup screen offers: every kind allowed, the email one naming the (masked) address. */
export async function setupChoices(deps: Pick<Services, 'db' | 'flags' | 'config'>, userId: string): Promise<FactorChoice[]> {
  const user = await findUserById(deps.db, userId);
  return setupKinds(deps).map((type) => (type === 'email' && user ? { type, destination: maskEmail(user.email) } : { type }));
}

/** What the sign-in choice offers: the user's usable factors, each with its masked destination and its name. */
export async function signInChoices(deps: Pick<Services, 'db'>, userId: string, factors: readonly MfaFactor[]): Promise<FactorChoice[]> {
  const user = await findUserById(deps.db, userId);
  const passkeys = (await confirmedFactors(deps.db, userId)).filter((factor) => factor.kind === 'passkey').length;
  return factors.map((factor): FactorChoice => {
    const named = factor.label && (factor.kind !== 'passkey' || passkeys === 1) ? { name: factor.label } : {};
    if (factor.kind === 'email' && user) return { type: 'email', destination: maskEmail(user.email), ...named };
    if (factor.kind === 'sms' && factor.phone) return { type: 'sms', destination: maskPhone(factor.phone), ...named };
    return { type: factor.kind, ...named };
  });
}
