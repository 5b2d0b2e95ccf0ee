import { LIMITS } from '../limits.ts';
import type { Services } from '../services.ts';
import { listSecurityEvents } from '../store/security-events.ts';
import { describeAgent } from '../auth/user-agent.ts';
import type { AccountCaller } from './account-token.ts';
import type { ActivityEntry } from '../../contract/account-api.ts';

/** The caller's last LIMITS.SECURITY_EVENTS_LISTED security events (the ops audit trail), newest first. */
export async function securityActivity(deps: Pick<Services, 'db'>, caller: AccountCaller): Promise<{ events: ActivityEntry[] }> {
  const events = await listSecurityEvents(deps.db, { userId: caller.userId, limit: LIMITS.SECURITY_EVENTS_LISTED });
  return {
    events: events.map((event) => ({ kind: event.kind, at: event.at.toISOString(), ip: event.ip, ...describeAgent(event.userAgent ?? '') })),
  };
}
