import type { Queryable } from '../db/database.ts';

/** A provider session of a user, with the browser it was signed in from and the apps signed in on it. */
export interface SessionRecord {
  uid: string;
  userAgent: string;
  ip: string;
  startedAt: Date;
  lastActiveAt: Date;
  /** Client ids of the apps signed in on this session. */
  clientIds: string[];
}

/** Notes the browser behind a session as it signs in to an app (first sight starts it; later ones touch it). */
export async function recordSessionDevice(
  db: Queryable,
  input: { sessionUid: string; userId: string; userAgent: string; ip: string; now: Date },
): Promise<void> {
  await db.query(
    `insert into session_devices (session_uid, user_id, user_agent, ip, started_at, last_active_at) values ($1, $2, $3, $4, $5, $5)
     on conflict (session_uid) do update set last_active_at = excluded.last_active_at, ip = excluded.ip`,
    [input.sessionUid, input.userId, input.userAgent.slice(0, 512), input.ip, input.now],
  );
}

/** Marks a session as just used. */
export async function touchSessionDevice(db: Queryable, sessionUid: string, now: Date): Promise<void> {
  await db.query('update session_devices set last_active_at = $2 where session_uid = $1', [sessionUid, now]);
}

/** The user's live provider sessions, most recently active first. */
export async function listSessions(db: Queryable, userId: string, now: Date): Promise<SessionRecord[]> {
  const result = await db.query<{ uid: string; payload: { authorizations?: Record<string, unknown> }; user_agent: string | null; ip: string | null; started_at: Date | null; last_active_at: Date | null; login_ts: string | null }>(
    `select s.uid, s.payload, d.user_agent, d.ip, d.started_at, d.last_active_at, s.payload->>'loginTs' as login_ts
     from oidc_payloads s left join session_devices d on d.session_uid = s.uid
     where s.model = 'Session' and s.payload->>'accountId' = $1 and (s.expires_at is null or s.expires_at > $2)
     order by coalesce(d.last_active_at, d.started_at) desc nulls last`,
    [userId, now],
  );
  return result.rows.map((row) => {
    const loginAt = row.login_ts ? new Date(Number(row.login_ts) * 1000) : now;
    return {
      uid: row.uid,
      userAgent: row.user_agent ?? '',
      ip: row.ip ?? '',
      startedAt: row.started_at ? new Date(row.started_at) : loginAt,
      lastActiveAt: row.last_active_at ? new Date(row.last_active_at) : loginAt,
      clientIds: Object.keys(row.payload.authorizations ?? {}),
    };
  });
}

/** Forgets what was noted of ended sessions' browsers, and their step-ups. */
export async function forgetSessionDevices(db: Queryable, userId: string, sessionUids: readonly string[]): Promise<void> {
  if (sessionUids.length === 0) return;
  await db.query('delete from session_devices where user_id = $1 and session_uid = any($2::text[])', [userId, sessionUids]);
  await db.query('delete from account_step_ups where user_id = $1 and session_uid = any($2::text[])', [userId, sessionUids]);
}
