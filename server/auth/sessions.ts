import type Provider from 'oidc-provider';
import type { Clock } from '../clock.ts';
import type { Queryable } from '../db/database.ts';
import { recordSecurityEvent, type RequestOrigin } from '../store/security-events.ts';
import { deleteGrants, deleteUserSessions, listSessionRows, type SessionRow } from '../store/provider-sessions.ts';

/** One signed-in browser session of a user at the provider. */
export interface UserSession {
  /** The session's public id (oidc-provider's `uid`, never the cookie's value). */
  id: string;
  /** When the user signed in, if the provider recorded it. */
  startedAt: Date | undefined;
  /** When the session ends by itself. */
  expiresAt: Date | undefined;
  /** The client apps signed in through it. */
  clientIds: string[];
}

/** Why sessions end; recorded with the audit event. */
export type SessionEndReason =
  | 'signed_out'
  | 'signed_out_everywhere'
  | 'operator'
  | 'account_disabled'
  | 'mfa_reset'
  | 'password_reset'
  | 'password_changed'
  | 'not_me';

/** Which of the user's sessions to end. */
export type SessionSelection = { all: true } | { ids: readonly string[] } | { allExcept: string };

/** What ending sessions uses: the provider (for its clients' back-channel logout) and somewhere to report a client that did not answer. */
export interface SessionDeps {
  db: Queryable;
  provider: Provider;
  clock: Clock;
  /** Told when a client app's back-channel logout endpoint failed; the sessions end regardless. */
  onLogoutDeliveryFailure?: (failure: { clientId: string; error: unknown }) => void;
}

const toSession = (row: SessionRow): UserSession => ({
  id: row.uid,
  startedAt: typeof row.payload.loginTs === 'number' ? new Date(row.payload.loginTs * 1000) : undefined,
  expiresAt: row.expiresAt ?? undefined,
  clientIds: Object.keys(row.payload.authorizations ?? {}),
});

/** The user's live sessions, newest first. */
export async function listSessions(db: Queryable, userId: string): Promise<UserSession[]> {
  return (await listSessionRows(db, userId)).map(toSession);
}

function selected(rows: SessionRow[], which: SessionSelection): SessionRow[] {
  if ('all' in which) return rows;
  if ('ids' in which) return rows.filter((row) => which.ids.includes(row.uid));
  return rows.filter((row) => row.uid !== which.allExcept);
}

/**
 * Ends sessions of `userId`: each goes, with its grants and every code and token issued under them, so no refresh
 * or access token of theirs works any more; every client app signed in through one that registered a
 * `backchannel_logout_uri` is told (OpenID Connect Back-Channel Logout 1.0); each is recorded in the audit trail.
 * Ending all of them also revokes grants no session holds any more. Returns the sessions ended.
 */
export async function endSessions(
  deps: SessionDeps,
  request: { userId: string; which: SessionSelection; reason: SessionEndReason; origin?: RequestOrigin; actor?: string },
): Promise<UserSession[]> {
  const rows = selected(await listSessionRows(deps.db, request.userId), request.which);
  const ended = await deleteUserSessions(deps.db, request.userId, rows.map((row) => row.id));
  const endedRows = rows.filter((row) => ended.includes(row.id));
  const grantIds = endedRows.flatMap((row) => Object.values(row.payload.authorizations ?? {}).map((entry) => entry.grantId).filter((id) => id !== undefined));
  await deleteGrants(deps.db, request.userId, 'all' in request.which ? 'all' : grantIds);
  await Promise.all(endedRows.flatMap((row) => Object.entries(row.payload.authorizations ?? {}).map(([clientId, entry]) => notifyClient(deps, clientId, request.userId, entry.sid))));
  const at = new Date(deps.clock());
  for (const row of endedRows) {
    const detail = { reason: request.reason, session_id: row.uid, clients: Object.keys(row.payload.authorizations ?? {}), ...(request.actor ? { actor: request.actor } : {}) };
    await recordSecurityEvent(deps.db, { userId: request.userId, kind: 'session_ended', at, ...request.origin, detail });
  }
  return endedRows.map(toSession);
}

/** What oidc-provider's Client offers for back-channel logout (its types leave the method out). */
interface BackChannelClient {
  backchannelLogoutUri?: string;
  backchannelLogout(sub: string, sid: string): Promise<void>;
}

/** Sends the client app's back-channel logout token, if it registered an endpoint for one. */
async function notifyClient(deps: SessionDeps, clientId: string, userId: string, sid: string | undefined): Promise<void> {
  try {
    const client = (await deps.provider.Client.find(clientId)) as BackChannelClient | undefined;
    if (!client?.backchannelLogoutUri) return;
    // oidc-provider's own sender: it signs the logout token (with `sid` when the client requires it) and POSTs it.
    await client.backchannelLogout(userId, sid ?? '');
  } catch (error) {
    deps.onLogoutDeliveryFailure?.({ clientId, error });
  }
}
