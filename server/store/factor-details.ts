import type { Queryable } from '../db/database.ts';
import type { FactorKind } from './mfa-factors.ts';

/** A confirmed factor as the account page lists it. */
export interface FactorDetails {
  id: string;
  kind: FactorKind;
  phone: string | null;
  label: string | null;
  isDefault: boolean;
  addedAt: Date;
  lastUsedAt: Date | null;
}

/** The user's confirmed factors with their names, default mark and use times, oldest first. */
export async function factorDetails(db: Queryable, userId: string): Promise<FactorDetails[]> {
  const result = await db.query<{ id: string; kind: FactorKind; phone: string | null; label: string | null; is_default: boolean; confirmed_at: Date; last_used_at: Date | null }>(
    `select id, kind, phone, label, is_default, confirmed_at, last_used_at from mfa_factors
     where user_id = $1 and confirmed_at is not null order by confirmed_at, kind`,
    [userId],
  );
  return result.rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    phone: row.phone,
    label: row.label,
    isDefault: row.is_default,
    addedAt: new Date(row.confirmed_at),
    lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at),
  }));
}

/** Names a confirmed factor; false when the user has no such factor. */
export async function renameFactor(db: Queryable, userId: string, factorId: string, label: string): Promise<boolean> {
  const result = await db.query('update mfa_factors set label = $3 where id = $1 and user_id = $2 and confirmed_at is not null', [factorId, userId, label]);
  return result.rowCount === 1;
}

/** Makes one confirmed factor the default (the one the sign-in offers first) and no other; false when it is not the user's. */
export async function setDefaultFactor(db: Queryable, userId: string, factorId: string): Promise<boolean> {
  const result = await db.query(
    'update mfa_factors set is_default = (id = $2) where user_id = $1 and confirmed_at is not null and exists (select 1 from mfa_factors where id = $2 and user_id = $1 and confirmed_at is not null)',
    [userId, factorId],
  );
  return result.rowCount > 0;
}

/**
 * Removes a confirmed factor, unless `keepOne` and it is the user's last: the check and the delete are one statement,
 * so two parallel removals can never leave the user with none.
 */
export async function deleteFactor(db: Queryable, userId: string, factorId: string, keepOne: boolean): Promise<'removed' | 'last' | 'missing'> {
  const result = await db.query(
    `delete from mfa_factors where id = $1 and user_id = $2 and confirmed_at is not null
     and (not $3 or (select count(*) from mfa_factors where user_id = $2 and confirmed_at is not null) > 1)`,
    [factorId, userId, keepOne],
  );
  if (result.rowCount === 1) return 'removed';
  const exists = await db.query('select 1 from mfa_factors where id = $1 and user_id = $2 and confirmed_at is not null', [factorId, userId]);
  return exists.rows.length > 0 ? 'last' : 'missing';
}

/** Notes that a factor just proved a sign-in or a step-up. */
export async function markFactorUsed(db: Queryable, factorId: string, now: Date): Promise<void> {
  await db.query('update mfa_factors set last_used_at = $2 where id = $1', [factorId, now]);
}

/** Records a step-up proven on the account page in this session. */
export async function recordStepUp(db: Queryable, input: { sessionUid: string; userId: string; now: Date }): Promise<void> {
  await db.query(
    `insert into account_step_ups (session_uid, user_id, verified_at) values ($1, $2, $3)
     on conflict (session_uid) do update set verified_at = excluded.verified_at, user_id = excluded.user_id`,
    [input.sessionUid, input.userId, input.now],
  );
}

/** When this session last proved a second factor on the account page, if ever. */
export async function lastStepUp(db: Queryable, sessionUid: string, userId: string): Promise<Date | undefined> {
  const result = await db.query<{ verified_at: Date }>('select verified_at from account_step_ups where session_uid = $1 and user_id = $2', [sessionUid, userId]);
  return result.rows[0] ? new Date(result.rows[0].verified_at) : undefined;
}
