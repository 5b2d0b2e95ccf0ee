import type { Queryable } from '../db/database.ts';

/**
 * Notes that the browser (the hash of its cookie) signed in to the account. Answers whether it is new to the
 * account, and whether the account had any browser before (its very first sign-in has nothing to compare with).
 */
export async function noteBrowser(db: Queryable, userId: string, browserHash: string, now: Date): Promise<{ isNew: boolean; hadOthers: boolean }> {
  const inserted = await db.query(
    'insert into known_browsers (user_id, browser_hash, first_seen_at, last_seen_at) values ($1, $2, $3, $3) on conflict (user_id, browser_hash) do nothing',
    [userId, browserHash, now],
  );
  const isNew = inserted.rowCount === 1;
  if (!isNew) await db.query('update known_browsers set last_seen_at = $3 where user_id = $1 and browser_hash = $2', [userId, browserHash, now]);
  if (!isNew) return { isNew, hadOthers: true };
  const others = await db.query('select 1 from known_browsers where user_id = $1 and browser_hash <> $2 limit 1', [userId, browserHash]);
  return { isNew, hadOthers: others.rows.length > 0 };
}
