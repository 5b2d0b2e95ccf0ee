import type { Queryable } from '../db/database.ts';

/**
 * Notes that the browser (the hash of its cookie) signed in to the account. Answers whether it is new to the
 * account, and whether the account had any browser before (its very first sign-in has nothing to compare with).
 */
export async function noteBrowser(db: Queryable, userId: string, browserHash: string, now: Date): Promise<{ isNew: boolean; hadOthers: boolean }> {
  const inserted = await db.query(
    `insert into known_browsers (user_id, browser_hash, first_seen_at, last_seen_at) values ($1, $2, $3, $3)
     on conflict (user_id, browser_hash) do update set last_seen_at = excluded.last_seen_at
     returning (xmax = 0) as inserted`,
    [userId, browserHash, now],
  );
  const isNew = (inserted.rows[0] as { inserted?: boolean } | undefined)?.inserted === true;
  if (!isNew) return { isNew, hadOthers: true };
  const others = await db.query('select 1 from known_browsers where user_id = $1 and browser_hash <> $2 limit 1', [userId, browserHash]);
  return { isNew, hadOthers: others.rowCount > 0 };
}
