import type { Queryable } from '../db/database.ts';

/**
 * Notes that the browser (the hash of its cookie) signed in to the account. Answers whether it is new to the
 * account, and whether the account had any browser before (its very first sign-in has nothing to compare with).
 */
export async function noteBrowser(db: Queryable, userId: string, browserHash: string, now: Date): Promise<{ isNew: boolean; hadOthers: boolean }> {
  // One round trip: every part sees the table as it was before the statement, so "others" never counts this browser.
  const result = await db.query<{ is_new: boolean; had_others: boolean }>(
    `with inserted as (
       insert into known_browsers (user_id, browser_hash, first_seen_at, last_seen_at) values ($1, $2, $3, $3)
       on conflict (user_id, browser_hash) do nothing returning 1
     ),
     seen as (
       update known_browsers set last_seen_at = $3 where user_id = $1 and browser_hash = $2 and not exists (select 1 from inserted)
     )
     select exists (select 1 from inserted) as is_new,
       exists (select 1 from known_browsers where user_id = $1 and browser_hash <> $2) as had_others`,
    [userId, browserHash, now],
  );
  const row = result.rows[0];
  const isNew = row?.is_new === true;
  // A browser seen before is by definition not the account's first.
  return { isNew, hadOthers: !isNew || row?.had_others === true };
}
