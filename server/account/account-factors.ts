import { revokeTrustedDevicesMadeWith } from '../store/trusted-devices.ts';
import { LIMITS } from '../limits.ts';
import { ApiError } from '../errors.ts';
import { maskEmail, maskPhone } from '../mask.ts';
import { sendFactorCode } from '../mfa/code-factor.ts';
import { setupKinds } from '../mfa/factor-choices.ts';
import { normalizePhone, TOTP_SEAL_CONTEXT, verifyFactorCode, type FactorDeps } from '../mfa/factor-flow.ts';
import { accountOwner, authenticationOptions, authenticatorName, provePasskey, registerPasskey, registrationOptions } from '../mfa/passkeys.ts';
import { newTotpSecret, totpIssuer, totpUri } from '../mfa/totp.ts';
import { userPasskeys, type PasskeyCredential } from '../store/passkeys.ts';
import type { Services } from '../services.ts';
import { deleteFactor, factorDetails, lastStepUp, markFactorUsed, recordStepUp, renameFactor, setDefaultFactor } from '../store/factor-details.ts';
import { confirmedFactors, confirmFactor, createPendingFactor, findFactor, type FactorKind } from '../store/mfa-factors.ts';
import { signInStepUpAt } from '../store/sign-in-step-ups.ts';
import { findUserById } from '../store/users.ts';
import { ACCOUNT_CLIENT_NAME } from './account-client.ts';
import { recordAccountChange } from './account-events.ts';
import type { AccountCaller } from './account-token.ts';
import type { FactorSummary } from '../../contract/account-api.ts';

/** What the account page's factor functions use. */
export type AccountFactorDeps = FactorDeps & Pick<Services, 'flags' | 'config' | 'mailer'>;

/** The user's sign-in methods, the kinds they may add, and whether a step-up is fresh now. */
export async function listFactors(deps: AccountFactorDeps, caller: AccountCaller) {
  const user = await findUserById(deps.db, caller.userId);
  const factors = await factorDetails(deps.db, caller.userId);
  const passkeys = new Map((await userPasskeys(deps.db, caller.userId)).map((passkey) => [passkey.factorId, passkey]));
  const summaries: FactorSummary[] = factors.map((factor) => ({
    id: factor.id,
    kind: factor.kind,
    label: factor.label,
    destination: factor.kind === 'sms' && factor.phone ? maskPhone(factor.phone) : factor.kind === 'email' && user ? maskEmail(user.email) : null,
    isDefault: factor.isDefault,
    addedAt: factor.addedAt.toISOString(),
    lastUsedAt: factor.lastUsedAt?.toISOString() ?? null,
    authenticator: authenticatorNameOf(passkeys.get(factor.id)),
  }));
  const stepUpUntil = await stepUpExpiry(deps, caller);
  return {
    factors: summaries,
    // One factor of each kind (a kind the person has is not offered again), but any number of passkeys.
    addable: setupKinds(deps).filter((kind) => kind === 'passkey' || !factors.some((factor) => factor.kind === kind)),
    mfaRequired: deps.config.mfaRequired,
    stepUpUntil: stepUpUntil?.toISOString() ?? null,
  };
}

const authenticatorNameOf = (passkey: PasskeyCredential | undefined): string | null => (passkey ? authenticatorName(passkey.aaguid) : null);

/** The latest second factor proven for this page: a step-up in this session, or the sign-in that made its token. */
async function stepUpExpiry(deps: Pick<Services, 'db' | 'clock'>, caller: AccountCaller): Promise<Date | undefined> {
  const times = [await lastStepUp(deps.db, caller.sessionUid, caller.userId), await signInStepUpAt(deps.db, caller.grantId, caller.userId)];
  const at = Math.max(...times.map((time) => time?.getTime() ?? 0));
  const until = at > 0 ? new Date(at + LIMITS.ACCOUNT_STEP_UP_TTL * 1000) : undefined;
  return until && until.getTime() > deps.clock() ? until : undefined;
}

/**
 * Changing factors, recovery codes, the password or the email, or ending other sessions, needs a second factor
 * proven in this session within ACCOUNT_STEP_UP_TTL (a sign-in that proved one counts). A user with no factor at all
 * (MFA_REQUIRED off) has nothing to step up with, and may add their first.
 */
export async function requireStepUp(deps: Pick<Services, 'db' | 'clock'>, caller: AccountCaller): Promise<void> {
  if ((await confirmedFactors(deps.db, caller.userId)).length === 0) return;
  if (!(await stepUpExpiry(deps, caller))) throw new ApiError('account.step_up_required');
}

async function ownFactor(deps: Pick<Services, 'db'>, caller: AccountCaller, factorId: string) {
  const factor = await findFactor(deps.db, caller.userId, factorId);
  if (!factor?.confirmed) throw new ApiError('account.factor_not_found');
  return factor;
}

/** Starts a step-up with one of the user's factors: sends its code (email, SMS); an authenticator needs nothing sent. */
export async function startStepUp(deps: AccountFactorDeps, caller: AccountCaller, factorId: string): Promise<Record<string, unknown>> {
  const factor = await ownFactor(deps, caller, factorId);
  if (factor.kind === 'totp') return { channel: 'totp' };
  if (factor.kind === 'passkey') return { channel: 'passkey', passkey: { ceremony: 'get', options: await authenticationOptions(deps, accountOwner(caller.sessionUid), caller.userId) } };
  return sendFactorCode(deps, factor, false);
}

/** Proves a factor for the step-up: the code is checked as at sign-in (limits, no replay). */
export async function completeStepUp(deps: AccountFactorDeps, caller: AccountCaller, factorId: string, code: string): Promise<{ stepUpUntil: string }> {
  const factor = await ownFactor(deps, caller, factorId);
  await verifyFactorCode(deps, caller.userId, { kind: factor.kind, factorId, setup: false }, code);
  const now = new Date(deps.clock());
  await markFactorUsed(deps.db, factorId, now);
  await recordStepUp(deps.db, { sessionUid: caller.sessionUid, userId: caller.userId, now });
  return { stepUpUntil: new Date(now.getTime() + LIMITS.ACCOUNT_STEP_UP_TTL * 1000).toISOString() };
}

/** Proves one of the person's passkeys for the step-up. */
export async function completePasskeyStepUp(deps: AccountFactorDeps, caller: AccountCaller, credential: unknown): Promise<{ stepUpUntil: string }> {
  const proven = await provePasskey(deps, accountOwner(caller.sessionUid), { response: credential, userId: caller.userId, origin: caller.origin });
  const now = new Date(deps.clock());
  await markFactorUsed(deps.db, proven.factorId, now);
  await recordStepUp(deps.db, { sessionUid: caller.sessionUid, userId: caller.userId, now });
  return { stepUpUntil: new Date(now.getTime() + LIMITS.ACCOUNT_STEP_UP_TTL * 1000).toISOString() };
}

/** Adds the passkey the browser just created (after a step-up), once it verifies against this session's challenge. */
export async function addPasskeyFactor(deps: AccountFactorDeps, caller: AccountCaller, credential: unknown, name: string): Promise<void> {
  await requireStepUp(deps, caller);
  await registerPasskey(deps, accountOwner(caller.sessionUid), { userId: caller.userId, response: credential, name });
  await recordAccountChange(deps, { userId: caller.userId, kind: 'factor_added', origin: caller.origin, detail: { factor_kind: 'passkey' } });
}

/** Starts adding a factor of `kind` (after a step-up): an authenticator's secret to scan, or a code sent to confirm. */
export async function beginAddFactor(deps: AccountFactorDeps, caller: AccountCaller, kind: string, phoneInput?: string): Promise<Record<string, unknown>> {
  await requireStepUp(deps, caller);
  const allowed = setupKinds(deps).find((candidate) => candidate === kind);
  if (!allowed) throw new ApiError('mfa.method_unavailable');
  const user = await findUserById(deps.db, caller.userId);
  if (!user) throw new ApiError('account.signed_out');
  // A passkey is kept only once the browser's answer verifies (addPasskeyFactor): nothing half-registered.
  if (allowed === 'passkey') return { kind: allowed, passkey: { ceremony: 'create', options: await registrationOptions(deps, accountOwner(caller.sessionUid), user) } };
  if (allowed === 'totp') {
    const secret = newTotpSecret();
    const factorId = await createPendingFactor(deps.db, { userId: caller.userId, kind: allowed, secretSealed: deps.box.seal(secret, TOTP_SEAL_CONTEXT) });
    const issuer = totpIssuer(ACCOUNT_CLIENT_NAME);
    return { factorId, kind: allowed, secret, issuer, account: user.email, otpauth_uri: totpUri(secret, issuer, user.email) };
  }
  const phone = allowed === 'sms' ? normalizePhone(phoneInput ?? '') : undefined;
  if (allowed === 'sms' && !phone) throw new ApiError('phone.invalid');
  const factorId = await createPendingFactor(deps.db, { userId: caller.userId, kind: allowed, ...(phone ? { phone } : {}) });
  const factor = await findFactor(deps.db, caller.userId, factorId);
  if (!factor) throw new ApiError('account.factor_not_found');
  return { factorId, kind: allowed, ...(await sendFactorCode(deps, factor, true)) };
}

/** Confirms a factor being added with its first code; it replaces a confirmed one of the same kind. */
export async function confirmAddFactor(deps: AccountFactorDeps, caller: AccountCaller, factorId: string, code: string): Promise<void> {
  await requireStepUp(deps, caller);
  const factor = await findFactor(deps.db, caller.userId, factorId);
  if (!factor || factor.confirmed) throw new ApiError('account.factor_not_found');
  await verifyFactorCode(deps, caller.userId, { kind: factor.kind, factorId, setup: true }, code);
  const now = new Date(deps.clock());
  if (!(await confirmFactor(deps.db, caller.userId, factorId, now))) throw new ApiError('account.factor_not_found');
  await markFactorUsed(deps.db, factorId, now);
  await recordAccountChange(deps, { userId: caller.userId, kind: 'factor_added', origin: caller.origin, detail: { factor_kind: factor.kind } });
}

/** Gives a factor a name of the person's choosing (trimmed; empty clears it). */
export async function nameFactor(deps: Pick<Services, 'db'>, caller: AccountCaller, factorId: string, label: string): Promise<void> {
  const trimmed = label.trim().slice(0, LIMITS.FACTOR_LABEL_MAX);
  if (!(await renameFactor(deps.db, caller.userId, factorId, trimmed))) throw new ApiError('account.factor_not_found');
}

/** Makes a factor the default one the sign-in offers. */
export async function chooseDefaultFactor(deps: Pick<Services, 'db'>, caller: AccountCaller, factorId: string): Promise<void> {
  if (!(await setDefaultFactor(deps.db, caller.userId, factorId))) throw new ApiError('account.factor_not_found');
}

/** Removes a factor after a step-up; the last one stays while MFA_REQUIRED is on. */
export async function removeFactor(deps: AccountFactorDeps, caller: AccountCaller, factorId: string): Promise<void> {
  await requireStepUp(deps, caller);
  const factor = await ownFactor(deps, caller, factorId);
  const outcome = await deleteFactor(deps.db, caller.userId, factorId, deps.config.mfaRequired);
  if (outcome === 'last') throw new ApiError('account.last_factor');
  if (outcome === 'missing') throw new ApiError('account.factor_not_found');
  await revokeTrustedDevicesMadeWith(deps.db, caller.userId, factorId);
  await recordAccountChange(deps, { userId: caller.userId, kind: 'factor_removed', origin: caller.origin, detail: { factor_kind: factor.kind } });
}
