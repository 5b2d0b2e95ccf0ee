import { sha256 } from '../crypto/hash.ts';
import type { Queryable } from '../db/database.ts';

/** Keeps a "This wasn't me" link's token (its hash only) for the user and the notice it came with. */
export async function insertNoticeLink(db: Queryable, link: { token: string; userId: string; notice: string; now: Date; expiresAt: Date }): Promise<void> {
  await db.query('insert into security_notice_links (token_hash, user_id, notice, created_at, expires_at) values ($1, $2, $3, $4, $5)', [
    sha256(link.token),
    link.userId,
    link.notice,
    link.now,
    link.expiresAt,
  ]);
}

/** Uses the link up, atomically (of parallel uses exactly one gets it); answers its user and notice, or undefined if it is unknown, used or expired. */
export async function claimNoticeLink(db: Queryable, token: string, now: Date): Promise<{ userId: string; notice: string } | undefined> {
  const result = await db.query<{ user_id: string; notice: string }>(
    'update security_notice_links set used_at = $2 where token_hash = $1 and used_at is null and expires_at > $2 returning user_id, notice',
    [sha256(token), now],
  );
  const row = result.rows[0];
  return row && { userId: row.user_id, notice: row.notice };
}

/** The link's user and notice while it is unused and unexpired; nothing changes. */
export async function findLiveNoticeLink(db: Queryable, token: string, now: Date): Promise<{ userId: string; notice: string } | undefined> {
  const result = await db.query<{ user_id: string; notice: string }>(
    'select user_id, notice from security_notice_links where token_hash = $1 and used_at is null and expires_at > $2',
    [sha256(token), now],
  );
  const row = result.rows[0];
  return row && { userId: row.user_id, notice: row.notice };
}
