import crypto from 'node:crypto';
import type { Queryable } from '../db/database.ts';

/** A browser a person trusted, as the account page and operators see it (never its token). */
export interface TrustedDevice {
  id: string;
  userAgent: string | null;
  ip: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date;
}

interface TrustedDeviceRow {
  id: string;
  user_agent: string | null;
  ip: string | null;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date;
}

const toDevice = (row: TrustedDeviceRow): TrustedDevice => ({
  id: row.id,
  userAgent: row.user_agent,
  ip: row.ip,
  createdAt: new Date(row.created_at),
  lastUsedAt: row.last_used_at ? new Date(row.last_used_at) : null,
  expiresAt: new Date(row.expires_at),
});

/** Keeps a new trusted browser: only the hash of its token. */
export async function createTrustedDevice(
  db: Queryable,
  device: { userId: string; tokenHash: string; factorId: string | null; amr: readonly string[]; userAgent?: string; ip?: string; now: Date; expiresAt: Date },
): Promise<string> {
  const id = crypto.randomUUID();
  await db.query(
    `insert into trusted_devices (id, user_id, token_hash, factor_id, amr, user_agent, ip, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [id, device.userId, device.tokenHash, device.factorId, [...device.amr], device.userAgent ?? null, device.ip ?? null, device.now, device.expiresAt],
  );
  return id;
}

/**
 * The amr of the user's unexpired trusted browser whose token hashes to `tokenHash`, noting its use now; undefined
 * for a token of nobody, of another user, or expired.
 */
export async function useTrustedDevice(db: Queryable, userId: string, tokenHash: string, now: Date): Promise<string[] | undefined> {
  const used = await db.query<{ amr: string[] }>(
    'update trusted_devices set last_used_at = $3 where user_id = $1 and token_hash = $2 and expires_at > $3 returning amr',
    [userId, tokenHash, now],
  );
  return used.rows[0]?.amr;
}

/** The user's unexpired trusted browsers, the most recently used first. */
export async function listTrustedDevices(db: Queryable, userId: string, now: Date): Promise<TrustedDevice[]> {
  const rows = await db.query<TrustedDeviceRow>(
    `select id, user_agent, ip, created_at, last_used_at, expires_at from trusted_devices
     where user_id = $1 and expires_at > $2 order by coalesce(last_used_at, created_at) desc, id`,
    [userId, now],
  );
  return rows.rows.map(toDevice);
}

/** Revokes one of the user's trusted browsers; answers whether there was one. */
export async function revokeTrustedDevice(db: Queryable, userId: string, id: string): Promise<boolean> {
  const removed = await db.query('delete from trusted_devices where user_id = $1 and id = $2', [userId, id]);
  return removed.rowCount > 0;
}

/** Revokes every trusted browser of the user; answers how many there were. */
export async function revokeAllTrustedDevices(db: Queryable, userId: string): Promise<number> {
  const removed = await db.query('delete from trusted_devices where user_id = $1', [userId]);
  return removed.rowCount;
}

/** Revokes every trusted browser of the user when any of them was trusted on the strength of `factorId`. */
export async function revokeTrustedDevicesMadeWith(db: Queryable, userId: string, factorId: string): Promise<number> {
  const removed = await db.query(
    'delete from trusted_devices where user_id = $1 and exists (select 1 from trusted_devices where user_id = $1 and factor_id = $2)',
    [userId, factorId],
  );
  return removed.rowCount;
}
