import { listTrustedDevices, revokeAllTrustedDevices, type TrustedDevice } from '../store/trusted-devices.ts';
import { reachedCodeCaps } from '../auth/code-cap.ts';
import { loginDelaySeconds } from '../auth/lockout.ts';
import { sendSecurityNotice, type NoticeDeps } from '../auth/security-notices.ts';
import { endSessions, listSessions, type SessionDeps, type UserSession } from '../auth/sessions.ts';
import { LIMITS } from '../limits.ts';
import { removeAllSecondFactors } from '../mfa/factor-reset.ts';
import { membershipsOf } from '../store/companies.ts';
import { clearLockoutCounters, readLockoutCounters } from '../store/lockouts.ts';
import { confirmedFactors } from '../store/mfa-factors.ts';
import { listSecurityEvents, recordSecurityEvent, type SecurityEvent, type SecurityEventKind } from '../store/security-events.ts';
import { emailsOf, findCredentialsByEmail, setUserDisabled, userDisabledAt, type User } from '../store/users.ts';
import { OperationError } from './operation-error.ts';

/** What the operator's user commands use. */
export type OperatorDeps = SessionDeps & NoticeDeps;

/** Whose hands an operator action was done by, in the audit trail. */
const OPERATOR = 'operator';

/** The account's guessing state: when the next password may be tried, and the codes that rest. */
export interface LockoutState {
  loginFailures: number;
  /** When the next password is checked again; absent when it is checked at once. */
  waitingUntil?: string;
  codeFailures: Array<{ purpose: string; failures: number; until: string }>;
  totpFailures: number;
  /** Purposes whose hourly cap of codes sent is reached, and when another code may go. */
  codeCaps: Array<{ purpose: string; issued: number; until: string }>;
}

/** Everything `user show` prints. */
export interface UserReport {
  user: User & { disabledAt?: string; passwordChangedAt: string; resetRequired: boolean };
  factors: Array<{ kind: string; destination?: string }>;
  sessions: Array<{ id: string; startedAt?: string; expiresAt?: string; clientIds: string[] }>;
  /** Browsers the user trusted to skip the second factor ("Don't ask for a code on this device"). */
  trustedDevices: TrustedDeviceView[];
  lockout: LockoutState;
  companies: string[];
  events: AuditEntry[];
}

/** A trusted browser as an operator reads it. */
export interface TrustedDeviceView {
  id: string;
  userAgent?: string;
  ip?: string;
  createdAt: string;
  lastUsedAt?: string;
  expiresAt: string;
}

const toTrustedDeviceView = (device: TrustedDevice): TrustedDeviceView => ({
  id: device.id,
  ...(device.userAgent ? { userAgent: device.userAgent } : {}),
  ...(device.ip ? { ip: device.ip } : {}),
  createdAt: device.createdAt.toISOString(),
  ...(device.lastUsedAt ? { lastUsedAt: device.lastUsedAt.toISOString() } : {}),
  expiresAt: device.expiresAt.toISOString(),
});

/** One line of the audit trail as an operator reads it. */
export interface AuditEntry {
  at: string;
  kind: SecurityEventKind;
  email?: string;
  ip?: string;
  userAgent?: string;
  detail: Record<string, unknown>;
}

async function requireUser(deps: { db: OperatorDeps['db'] }, email: string) {
  const found = await findCredentialsByEmail(deps.db, email);
  if (!found) throw new OperationError(`no user has the email ${email.trim()}`);
  return found;
}

const audit = (deps: OperatorDeps, userId: string, kind: SecurityEventKind, detail: Record<string, unknown> = {}) =>
  recordSecurityEvent(deps.db, { userId, kind, at: new Date(deps.clock()), detail: { actor: OPERATOR, ...detail } });

const toSessionView = (session: UserSession) => ({
  id: session.id,
  startedAt: session.startedAt?.toISOString(),
  expiresAt: session.expiresAt?.toISOString(),
  clientIds: session.clientIds,
});

function toAuditEntry(event: SecurityEvent, email?: string): AuditEntry {
  return {
    at: event.at.toISOString(),
    kind: event.kind,
    ...(email ? { email } : {}),
    ...(event.ip ? { ip: event.ip } : {}),
    ...(event.userAgent ? { userAgent: event.userAgent } : {}),
    detail: event.detail,
  };
}

/** `user show EMAIL`: factors, sessions, lockout state, companies and the last events. The look is audited. */
export async function showUser(deps: OperatorDeps, email: string): Promise<UserReport> {
  const found = await requireUser(deps, email);
  const userId = found.user.id;
  const now = new Date(deps.clock());
  const counters = await readLockoutCounters(deps.db, userId, now);
  const waitSeconds = loginDelaySeconds(counters.loginFailures);
  const waitEnds = counters.lastLoginFailureAt && new Date(counters.lastLoginFailureAt.getTime() + waitSeconds * 1000);
  const disabledAt = await userDisabledAt(deps.db, userId);
  const report: UserReport = {
    user: {
      ...found.user,
      ...(disabledAt ? { disabledAt: disabledAt.toISOString() } : {}),
      passwordChangedAt: found.passwordChangedAt.toISOString(),
      resetRequired: found.resetRequired,
    },
    factors: (await confirmedFactors(deps.db, userId)).map((factor) => ({ kind: factor.kind, ...(factor.phone ? { destination: factor.phone } : {}) })),
    sessions: (await listSessions(deps.db, userId)).map(toSessionView),
    trustedDevices: (await listTrustedDevices(deps.db, userId, now)).map(toTrustedDeviceView),
    lockout: {
      loginFailures: counters.loginFailures,
      ...(waitEnds && waitEnds > now ? { waitingUntil: waitEnds.toISOString() } : {}),
      codeFailures: counters.codeFailures.map((entry) => ({ ...entry, until: entry.until.toISOString() })),
      totpFailures: counters.totpFailures,
      codeCaps: (await reachedCodeCaps(deps.db, userId, now)).map((cap) => ({ ...cap, until: cap.until.toISOString() })),
    },
    companies: (await membershipsOf(deps.db, userId)).map((company) => company.name),
    events: (await listSecurityEvents(deps.db, { userId, limit: LIMITS.SECURITY_EVENTS_LISTED })).map((event) => toAuditEntry(event)),
  };
  await audit(deps, userId, 'account_viewed');
  return report;
}

/**
 * `user reset-mfa EMAIL`: removes every second factor (and whatever stands in for one), signs the account out
 * everywhere, and mails the owner; their next sign-in sets a factor up again.
 */
export async function resetMfa(deps: OperatorDeps, email: string): Promise<{ email: string; removed: string[]; sessionsEnded: number }> {
  const { user } = await requireUser(deps, email);
  const removed = await removeAllSecondFactors(deps.db, user.id);
  const ended = await endSessions(deps, { userId: user.id, which: { all: true }, reason: 'mfa_reset', actor: OPERATOR });
  await audit(deps, user.id, 'mfa_reset', { removed });
  await sendSecurityNotice(deps, { user, kind: 'mfa_reset' });
  return { email: user.email, removed, sessionsEnded: ended.length };
}

/** `user unlock EMAIL`: clears the waits after failed passwords, the rests after wrong codes and the hourly caps of codes sent. */
export async function unlockUser(deps: OperatorDeps, email: string): Promise<{ email: string }> {
  const { user } = await requireUser(deps, email);
  await clearLockoutCounters(deps.db, user.id);
  await audit(deps, user.id, 'account_unlocked');
  return { email: user.email };
}

/** `user disable EMAIL`: every session ends, and sign-in is refused with the answer a wrong password gets. */
export async function disableUser(deps: OperatorDeps, email: string): Promise<{ email: string; changed: boolean; sessionsEnded: number }> {
  const { user } = await requireUser(deps, email);
  const changed = await setUserDisabled(deps.db, user.id, new Date(deps.clock()));
  // Sessions end even when it was disabled already: one may have been finishing as it was.
  const ended = await endSessions(deps, { userId: user.id, which: { all: true }, reason: 'account_disabled', actor: OPERATOR });
  if (changed) await audit(deps, user.id, 'account_disabled');
  return { email: user.email, changed, sessionsEnded: ended.length };
}

/** `user enable EMAIL`: the account may sign in again. */
export async function enableUser(deps: OperatorDeps, email: string): Promise<{ email: string; changed: boolean }> {
  const { user } = await requireUser(deps, email);
  const changed = await setUserDisabled(deps.db, user.id, null);
  if (changed) await audit(deps, user.id, 'account_enabled');
  return { email: user.email, changed };
}

/** What `user sessions` does: list, end one, or end all. */
export type SessionsAction = { list: true } | { end: string } | { endAll: true };

/**
 * `user sessions EMAIL [--end ID | --end-all]`: the sessions and trusted browsers, after ending what was asked.
 * Ending all also revokes every trusted browser, so a suspected account proves its second factor again everywhere.
 */
export async function userSessions(
  deps: OperatorDeps,
  email: string,
  action: SessionsAction,
): Promise<{ email: string; ended: string[]; sessions: UserReport['sessions']; trustRevoked: number; trustedDevices: TrustedDeviceView[] }> {
  const { user } = await requireUser(deps, email);
  let ended: UserSession[] = [];
  let trustRevoked = 0;
  if ('end' in action) {
    ended = await endSessions(deps, { userId: user.id, which: { ids: [action.end] }, reason: 'operator', actor: OPERATOR });
    if (ended.length === 0) throw new OperationError(`${user.email} has no session ${action.end} (see: npm run sso -- user sessions ${user.email})`);
  } else if ('endAll' in action) {
    ended = await endSessions(deps, { userId: user.id, which: { all: true }, reason: 'operator', actor: OPERATOR });
    trustRevoked = await revokeAllTrustedDevices(deps.db, user.id);
  }
  return {
    email: user.email,
    ended: ended.map((session) => session.id),
    sessions: (await listSessions(deps.db, user.id)).map(toSessionView),
    trustRevoked,
    trustedDevices: (await listTrustedDevices(deps.db, user.id, new Date(deps.clock()))).map(toTrustedDeviceView),
  };
}

/** `audit [--user EMAIL] [--since DURATION]`: the newest events first, at most `limit`. */
export async function auditTrail(
  deps: Pick<OperatorDeps, 'db' | 'clock'>,
  query: { email?: string; sinceSeconds?: number; limit: number },
): Promise<AuditEntry[]> {
  const user = query.email === undefined ? undefined : (await requireUser(deps, query.email)).user;
  const since = query.sinceSeconds === undefined ? undefined : new Date(deps.clock() - query.sinceSeconds * 1000);
  const events = await listSecurityEvents(deps.db, { userId: user?.id, since, limit: query.limit });
  const emails = new Map<string, string>();
  if (user) emails.set(user.id, user.email);
  const others = await emailsOf(deps.db, [...new Set(events.map((event) => event.userId).filter((id): id is string => id !== null))]);
  for (const [id, email] of others) emails.set(id, email);
  return events.map((event) => toAuditEntry(event, event.userId === null ? undefined : emails.get(event.userId)));
}
