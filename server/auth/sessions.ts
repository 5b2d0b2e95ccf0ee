import type { Database, Queryable } from '../db/database.ts';
import { deleteSessions, listSessions } from '../store/session-devices.ts';

/**
 * Signs the user out everywhere: deletes their provider sessions, and every grant with the codes and tokens issued
 * under it, so no access or refresh token of theirs works any more.
 */
export async function revokeEverything(db: Queryable, userId: string): Promise<void> {
  await db.query("delete from oidc_payloads where model = 'Session' and payload->>'accountId' = $1", [userId]);
  await db.query(
    `delete from oidc_payloads where grant_id in (select id from oidc_payloads where model = 'Grant' and payload->>'accountId' = $1)`,
    [userId],
  );
  await db.query("delete from oidc_payloads where model = 'Grant' and payload->>'accountId' = $1", [userId]);
}

/** Why sessions end; audit and back-channel logout read it. */
export type SessionEndReason = 'signed_out_one' | 'signed_out_others' | 'password_changed';

/**
 * THE place where the account page ends sessions (sign out one, sign out all others, a password change): each
 * session goes with its grants and every code, access and refresh token issued under them. Back-channel logout and
 * the audit trail hook in here. Returns the uids of the sessions that were ended.
 */
export async function endSessions(db: Database, input: { userId: string; sessionUids: readonly string[]; reason: SessionEndReason }): Promise<string[]> {
  return db.transaction((tx) => deleteSessions(tx, input.userId, input.sessionUids));
}

/** Ends every session of the user except `keepUid` (this browser's); returns the uids ended. */
export async function endOtherSessions(db: Database, input: { userId: string; keepUid: string; reason: SessionEndReason; now: Date }): Promise<string[]> {
  const others = (await listSessions(db, input.userId, input.now)).map((session) => session.uid).filter((uid) => uid !== input.keepUid);
  return endSessions(db, { userId: input.userId, sessionUids: others, reason: input.reason });
}
