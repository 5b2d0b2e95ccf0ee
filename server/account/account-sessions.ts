import { describeAgent } from '../auth/user-agent.ts';
import { ApiError } from '../errors.ts';
import { endSessions } from '../auth/sessions.ts';
import type { Services } from '../services.ts';
import { findClientInfo } from '../store/clients.ts';
import { forgetSessionDevices, listSessions, touchSessionDevice } from '../store/session-devices.ts';
import { revokeAllTrustedDevices } from '../store/trusted-devices.ts';
import { requireStepUp } from './account-factors.ts';
import type { AccountCaller } from './account-token.ts';
import type { SessionSummary } from '../../contract/account-api.ts';

/** What ending sessions from the account page uses. */
export type AccountSessionDeps = Pick<Services, 'db' | 'clock' | 'provider'>;

/** Every live session of the caller, this browser's marked and first. */
export async function listAccountSessions(deps: Pick<Services, 'db' | 'clock'>, caller: AccountCaller): Promise<SessionSummary[]> {
  const now = new Date(deps.clock());
  await touchSessionDevice(deps.db, caller.sessionUid, now);
  const sessions = await listSessions(deps.db, caller.userId, now);
  const names = new Map<string, string>();
  for (const clientId of new Set(sessions.flatMap((session) => session.clientIds))) {
    names.set(clientId, (await findClientInfo(deps.db, clientId))?.name ?? clientId);
  }
  const summaries = sessions.map((session) => ({
    id: session.uid,
    ...describeAgent(session.userAgent),
    ip: session.ip,
    apps: session.clientIds.map((clientId) => names.get(clientId) ?? clientId),
    startedAt: session.startedAt.toISOString(),
    lastActiveAt: session.lastActiveAt.toISOString(),
    current: session.uid === caller.sessionUid,
  }));
  return [...summaries.filter((session) => session.current), ...summaries.filter((session) => !session.current)];
}

/**
 * Signs out one session of the caller (this one too, if asked: the page then signs in again) through endSessions,
 * which revokes its grants and tokens, tells its apps by back-channel logout and records it in the audit trail.
 * Ending another browser's session needs a step-up (ASVS 7.5.2): a stolen page must not lock its owner out.
 */
export async function signOutSession(deps: AccountSessionDeps, caller: AccountCaller, sessionUid: string): Promise<void> {
  if (sessionUid !== caller.sessionUid) await requireStepUp(deps, caller);
  const ended = await endSessions(deps, { userId: caller.userId, which: { ids: [sessionUid] }, reason: 'signed_out', origin: caller.origin });
  if (ended.length === 0) throw new ApiError('account.session_not_found');
  await forgetSessionDevices(deps.db, caller.userId, ended.map((session) => session.id));
}

/**
 * Signs out every session of the caller but this browser's (the same way, after a step-up), and revokes every trusted
 * browser, so a thief's browser cannot sign in again without a code; answers how many sessions and browsers ended.
 */
export async function signOutOtherSessions(deps: AccountSessionDeps, caller: AccountCaller): Promise<{ ended: number; trustedDevicesRevoked: number }> {
  await requireStepUp(deps, caller);
  const ended = await endSessions(deps, { userId: caller.userId, which: { allExcept: caller.sessionUid }, reason: 'signed_out_everywhere', origin: caller.origin });
  await forgetSessionDevices(deps.db, caller.userId, ended.map((session) => session.id));
  const trustedDevicesRevoked = await revokeAllTrustedDevices(deps.db, caller.userId);
  return { ended: ended.length, trustedDevicesRevoked };
}
