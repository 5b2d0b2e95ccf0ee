import type { Queryable } from '../db/database.ts';

/** Tables whose rows are useless once `expires_at` has passed. */
const EXPIRING_TABLES = ['transactions', 'credential_nonces', 'oidc_payloads'] as const;

/** Deletes expired transactions, credential nonces and provider rows; none of them can be used once expired anyway. */
export async function purgeExpired(db: Queryable, now: Date): Promise<number> {
  let deleted = 0;
  for (const table of EXPIRING_TABLES) deleted += (await db.query(`delete from ${table} where expires_at <= $1`, [now])).rowCount;
  return deleted;
}
