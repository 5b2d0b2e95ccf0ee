import type { Queryable } from '../db/database.ts';

/** What oidc-provider keeps of a browser session that matters here. */
export interface SessionPayload {
  accountId?: string;
  loginTs?: number;
  /** Per client app signed in through the session: its session id (`sid`) and grant. */
  authorizations?: Record<string, { sid?: string; grantId?: string }>;
}

/** A session row: its id (the cookie's value, never shown), its public `uid`, and its payload. */
export interface SessionRow {
  id: string;
  uid: string;
  expiresAt: Date | null;
  payload: SessionPayload;
}

/** The account's live provider sessions, newest first. */
export async function listSessionRows(db: Queryable, userId: string): Promise<SessionRow[]> {
  const result = await db.query<{ id: string; uid: string; expires_at: Date | null; payload: SessionPayload }>(
    `select id, uid, expires_at, payload from oidc_payloads
     where model = 'Session' and payload->>'accountId' = $1 and (expires_at is null or expires_at > now())
     order by (payload->>'loginTs')::bigint desc nulls last, id`,
    [userId],
  );
  return result.rows.map((row) => ({ id: row.id, uid: row.uid, expiresAt: row.expires_at === null ? null : new Date(row.expires_at), payload: row.payload }));
}

/** Deletes the account's sessions with these ids; returns the ids deleted (a session another request ended is not). */
export async function deleteUserSessions(db: Queryable, userId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const result = await db.query<{ id: string }>(
    "delete from oidc_payloads where model = 'Session' and payload->>'accountId' = $1 and id = any($2) returning id",
    [userId, ids],
  );
  return result.rows.map((row) => row.id);
}

/** Deletes the account's grants (these, or all of them), with every code and token issued under them. */
export async function deleteGrants(db: Queryable, userId: string, grantIds: readonly string[] | 'all'): Promise<void> {
  if (grantIds !== 'all' && grantIds.length === 0) return;
  const mine = "select id from oidc_payloads where model = 'Grant' and payload->>'accountId' = $1 and ($2::text[] is null or id = any($2))";
  const params = [userId, grantIds === 'all' ? null : grantIds];
  await db.query(`delete from oidc_payloads where grant_id in (${mine})`, params);
  await db.query(`delete from oidc_payloads where model = 'Grant' and id in (${mine})`, params);
}
