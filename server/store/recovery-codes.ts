import crypto from 'node:crypto';
import type { Queryable } from '../db/database.ts';

/** Replaces the user's recovery codes with a new set (given as salted hashes): the old set stops working at once. */
export async function replaceRecoveryCodes(db: Queryable, userId: string, hashes: readonly string[], now: Date): Promise<void> {
  await db.query('delete from recovery_codes where user_id = $1', [userId]);
  for (const hash of hashes) {
    await db.query('insert into recovery_codes (id, user_id, code_hash, created_at) values ($1, $2, $3, $4)', [crypto.randomUUID(), userId, hash, now]);
  }
}

/** The user's unused recovery codes: their ids and stored hashes. */
export async function liveRecoveryCodes(db: Queryable, userId: string): Promise<Array<{ id: string; codeHash: string }>> {
  const result = await db.query<{ id: string; code_hash: string }>('select id, code_hash from recovery_codes where user_id = $1 and used_at is null', [userId]);
  return result.rows.map((row) => ({ id: row.id, codeHash: row.code_hash }));
}

/**
 * Spends the recovery code `id`, atomically: of any number of concurrent uses of one code exactly one marks it used;
 * a used one answers false.
 */
export async function spendRecoveryCodeById(db: Queryable, userId: string, id: string, now: Date): Promise<boolean> {
  const result = await db.query('update recovery_codes set used_at = $3 where user_id = $1 and id = $2 and used_at is null', [userId, id, now]);
  return result.rowCount === 1;
}

/** How many of the user's recovery codes are left unused, and when the set was made (undefined: never). */
export async function recoveryCodesLeft(db: Queryable, userId: string): Promise<{ left: number; createdAt: Date | undefined }> {
  const result = await db.query<{ left: string | number; created_at: Date | null }>(
    'select count(*) filter (where used_at is null) as left, max(created_at) as created_at from recovery_codes where user_id = $1',
    [userId],
  );
  const row = result.rows[0];
  return { left: Number(row?.left ?? 0), createdAt: row?.created_at ? new Date(row.created_at) : undefined };
}
