import { sha256 } from '../crypto/hash.ts';
import type { Queryable } from '../db/database.ts';

/** A live or just-claimed "This wasn't me" link: its user, the notice it came with and the address it was mailed to. */
export interface NoticeLinkRow {
  userId: string;
  notice: string;
  /** The account's address when the notice went out (null for links made before it was kept). */
  sentTo: string | null;
}

const toLink = (row: { user_id: string; notice: string; sent_to: string | null } | undefined): NoticeLinkRow | undefined =>
  row && { userId: row.user_id, notice: row.notice, sentTo: row.sent_to };

/** Keeps a "This wasn't me" link's token (its hash only) for the user, the notice it came with and the address it went to. */
export async function insertNoticeLink(db: Queryable, link: { token: string; userId: string; notice: string; sentTo: string; now: Date; expiresAt: Date }): Promise<void> {
  await db.query('insert into security_notice_links (token_hash, user_id, notice, created_at, expires_at, sent_to) values ($1, $2, $3, $4, $5, $6)', [
    sha256(link.token),
    link.userId,
    link.notice,
    link.now,
    link.expiresAt,
    link.sentTo,
  ]);
}

/** Uses the link up, atomically (of parallel uses exactly one gets it); undefined if it is unknown, used or expired. */
export async function claimNoticeLink(db: Queryable, token: string, now: Date): Promise<NoticeLinkRow | undefined> {
  const result = await db.query<{ user_id: string; notice: string; sent_to: string | null }>(
    'update security_notice_links set used_at = $2 where token_hash = $1 and used_at is null and expires_at > $2 returning user_id, notice, sent_to',
    [sha256(token), now],
  );
  return toLink(result.rows[0]);
}

/** The link while it is unused and unexpired; nothing changes. */
export async function findLiveNoticeLink(db: Queryable, token: string, now: Date): Promise<NoticeLinkRow | undefined> {
  const result = await db.query<{ user_id: string; notice: string; sent_to: string | null }>(
    'select user_id, notice, sent_to from security_notice_links where token_hash = $1 and used_at is null and expires_at > $2',
    [sha256(token), now],
  );
  return toLink(result.rows[0]);
}

/**
 * Ends every live link of the user that went to another address than `keep`: once the owner has put their address
 * back, a link mailed to the address they took it back from can no longer move it again.
 */
export async function endNoticeLinksSentElsewhere(db: Queryable, userId: string, keep: string, now: Date): Promise<void> {
  await db.query('update security_notice_links set used_at = $3 where user_id = $1 and used_at is null and sent_to is not null and lower(sent_to) <> lower($2)', [userId, keep, now]);
}
