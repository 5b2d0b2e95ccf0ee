import { decryptFields } from '../auth/credentials.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { endSessions } from '../auth/sessions.ts';
import { ApiError } from '../errors.ts';
import type { Services } from '../services.ts';
import { markCompanyUsed, membershipsOf } from '../store/companies.ts';
import { pendingEmailChange } from '../store/email-changes.ts';
import { forgetSessionDevices } from '../store/session-devices.ts';
import { revokeAllTrustedDevices } from '../store/trusted-devices.ts';
import { setNames } from '../store/user-names.ts';
import { findCredentialsById, findUserById, setPassword } from '../store/users.ts';
import { requireStepUp, type AccountFactorDeps } from './account-factors.ts';
import { recordAccountChange } from './account-events.ts';
import type { AccountCaller } from './account-token.ts';

/** The longest name part we keep. */
const NAME_MAX = 100;

/** The person's names and email, and the email change waiting for its code, if any (the page shows it, and can cancel it). */
export async function readProfile(deps: Pick<Services, 'db' | 'clock'>, caller: AccountCaller) {
  const user = await findUserById(deps.db, caller.userId);
  if (!user) throw new ApiError('account.signed_out');
  const pending = await pendingEmailChange(deps.db, caller.userId, new Date(deps.clock()));
  return {
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    pendingEmail: pending ? { email: pending.newEmail, expiresAt: pending.expiresAt.toISOString() } : null,
  };
}

/** Changes the person's names (trimmed; neither may be empty). */
export async function changeNames(deps: Pick<Services, 'db' | 'clock'>, caller: AccountCaller, firstName: string, lastName: string) {
  const first = firstName.trim().slice(0, NAME_MAX);
  const last = lastName.trim().slice(0, NAME_MAX);
  if (first === '' || last === '') throw new ApiError('request.invalid', { message: 'Please enter your name', key: 'validation.name.required' });
  await setNames(deps.db, caller.userId, first, last);
  return readProfile(deps, caller);
}

/** What changing the password uses: the credential key, the policy, and what ending sessions needs. */
export type PasswordChangeDeps = AccountFactorDeps & Pick<Services, 'keys' | 'passwordPolicy' | 'provider'>;

/**
 * Changes the password: asks for a fresh second factor (re-authentication) and the current password, holds the new
 * one to the policy, then ends every other session through endSessions and revokes every trusted browser. Both passwords arrive encrypted to the
 * server's credential key, as at sign-in.
 */
export async function changePassword(deps: PasswordChangeDeps, caller: AccountCaller, body: Record<string, unknown>): Promise<{ endedSessions: number; trustedDevicesRevoked: number }> {
  await requireStepUp(deps, caller);
  const opened = await decryptFields(deps, body, ['currentPassword', 'newPassword']);
  const { currentPassword, newPassword } = opened;
  if (typeof currentPassword !== 'string' || typeof newPassword !== 'string') throw new ApiError('credentials.unreadable');
  const credentials = await findCredentialsById(deps.db, caller.userId);
  if (!credentials || !(await verifyPassword(currentPassword, credentials.passwordHash))) throw new ApiError('account.password_wrong');
  const unmet = deps.passwordPolicy(newPassword);
  if (unmet) throw new ApiError('request.invalid', unmet);
  if (await verifyPassword(newPassword, credentials.passwordHash)) throw new ApiError('password.reused');
  await setPassword(deps.db, caller.userId, await hashPassword(newPassword), new Date(deps.clock()));
  const ended = await endSessions(deps, { userId: caller.userId, which: { allExcept: caller.sessionUid }, reason: 'password_changed', origin: caller.origin });
  await forgetSessionDevices(deps.db, caller.userId, ended.map((session) => session.id));
  // As a reset does: whoever knew the old password may have trusted a browser of theirs.
  const trustedDevicesRevoked = await revokeAllTrustedDevices(deps.db, caller.userId);
  await recordAccountChange(deps, { userId: caller.userId, kind: 'password_changed', origin: caller.origin });
  return { endedSessions: ended.length, trustedDevicesRevoked };
}

/** The companies the person belongs to, the one the next sign-in acts for first. */
export async function listCompanies(deps: Pick<Services, 'db'>, caller: AccountCaller) {
  const companies = await membershipsOf(deps.db, caller.userId);
  return { companies: companies.map((company, index) => ({ id: company.id, name: company.name, next: index === 0 })) };
}

/**
 * "Switch company": the next sign-in acts for this company first (and, with `company-selection-removal` on, takes
 * it without asking). It marks the company as the last used; the current sign-ins keep theirs.
 */
export async function switchCompany(deps: Pick<Services, 'db' | 'clock'>, caller: AccountCaller, companyId: string) {
  const companies = await membershipsOf(deps.db, caller.userId);
  if (!companies.some((company) => company.id === companyId)) throw new ApiError('company.unknown');
  await markCompanyUsed(deps.db, caller.userId, companyId, new Date(deps.clock()));
  return listCompanies(deps, caller);
}
