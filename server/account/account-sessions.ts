import Bowser from 'bowser';
import { ApiError } from '../errors.ts';
import { endSessions } from '../auth/sessions.ts';
import type { Services } from '../services.ts';
import { findClientInfo } from '../store/clients.ts';
import { forgetSessionDevices, listSessions, touchSessionDevice } from '../store/session-devices.ts';
import type { AccountCaller } from './account-token.ts';

/** One signed-in browser as the account page shows it. */
export interface SessionSummary {
  id: string;
  browser: string;
  os: string;
  ip: string;
  apps: string[];
  startedAt: string;
  lastActiveAt: string;
  current: boolean;
}

/** What ending sessions from the account page uses. */
export type AccountSessionDeps = Pick<Services, 'db' | 'clock' | 'provider'>;

/** "Chrome 140" and "Linux" from a user agent; empty strings when it says nothing we know. */
export function describeAgent(userAgent: string): { browser: string; os: string } {
  if (userAgent === '') return { browser: '', os: '' };
  const parsed = Bowser.parse(userAgent);
  const major = parsed.browser.version?.split('.')[0];
  return {
    browser: [parsed.browser.name, major].filter(Boolean).join(' '),
    os: [parsed.os.name, parsed.os.versionName ?? parsed.os.version].filter(Boolean).join(' '),
  };
}

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
 */
export async function signOutSession(deps: AccountSessionDeps, caller: AccountCaller, sessionUid: string): Promise<void> {
  const ended = await endSessions(deps, { userId: caller.userId, which: { ids: [sessionUid] }, reason: 'signed_out', origin: caller.origin });
  if (ended.length === 0) throw new ApiError('account.session_not_found');
  await forgetSessionDevices(deps.db, caller.userId, ended.map((session) => session.id));
}

/** Signs out every session of the caller but this browser's (the same way); answers how many ended. */
export async function signOutOtherSessions(deps: AccountSessionDeps, caller: AccountCaller): Promise<number> {
  const ended = await endSessions(deps, { userId: caller.userId, which: { allExcept: caller.sessionUid }, reason: 'signed_out_everywhere', origin: caller.origin });
  await forgetSessionDevices(deps.db, caller.userId, ended.map((session) => session.id));
  return ended.length;
}
