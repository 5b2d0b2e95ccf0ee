import crypto from 'node:crypto';
import type { Database, Queryable, Transaction } from '../db/database.ts';
import { lockUserRow } from './users.ts';

function insertCodes(tx: Transaction, userId: string, hashes: readonly string[], now: Date) {
  return tx.query(
    'insert into recovery_codes (id, user_id, code_hash, created_at) select id, $1, code_hash, $4 from unnest($2::uuid[], $3::text[]) as code (id, code_hash)',
    [userId, hashes.map(() => crypto.randomUUID()), hashes, now],
  );
}

/** Replaces the user's recovery codes with a new set (given as salted hashes): the old set stops working at once. */
export async function replaceRecoveryCodes(db: Database, userId: string, hashes: readonly string[], now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    // The account's changes of codes run one after another: two at once never leave a mix of two sets, nor a set
    // made over one shown a moment before.
    await lockUserRow(tx, userId);
    await tx.query('delete from recovery_codes where user_id = $1', [userId]);
    await insertCodes(tx, userId, hashes, now);
  });
}

/**
 * Stores a first set for an account without a live code; answers false, storing nothing, when it has one (made by
 * a parallel request a moment before): that set, the one whose codes its request showed, must stay the live one.
 */
export async function addFirstRecoveryCodes(db: Database, userId: string, hashes: readonly string[], now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    await lockUserRow(tx, userId);
    const live = await tx.query('select 1 from recovery_codes where user_id = $1 and used_at is null limit 1', [userId]);
    if (live.rows.length > 0) return false;
    await insertCodes(tx, userId, hashes, now);
    return true;
  });
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
