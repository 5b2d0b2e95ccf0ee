import { LIMITS } from '../limits.ts';
import type { Services } from '../services.ts';
import { listSecurityEvents } from '../store/security-events.ts';
import { describeAgent } from './account-sessions.ts';
import type { AccountCaller } from './account-token.ts';

/** One line of the security activity: what happened, when, from which address and browser. */
export interface ActivityEntry {
  kind: string;
  at: string;
  ip: string | null;
  browser: string;
  os: string;
}

/** The caller's last LIMITS.SECURITY_EVENTS_LISTED security events (the ops audit trail), newest first. */
export async function securityActivity(deps: Pick<Services, 'db'>, caller: AccountCaller): Promise<{ events: ActivityEntry[] }> {
  const events = await listSecurityEvents(deps.db, { userId: caller.userId, limit: LIMITS.SECURITY_EVENTS_LISTED });
  return {
    events: events.map((event) => ({ kind: event.kind, at: event.at.toISOString(), ip: event.ip, ...describeAgent(event.userAgent ?? '') })),
  };
}
