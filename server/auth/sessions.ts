import type { Queryable } from '../db/database.ts';

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
