import crypto from 'node:crypto';
import type { Queryable } from '../db/database.ts';

/** The kinds of second factor. */
export const FACTOR_KINDS = ['email', 'sms', 'totp'] as const;
export type FactorKind = (typeof FACTOR_KINDS)[number];

/** A second factor of a user, confirmed or still being set up. */
export interface MfaFactor {
  id: string;
  userId: string;
  kind: FactorKind;
  /** SMS: the phone number, E.164. */
  phone: string | null;
  /** TOTP: the secret, sealed with the master key. */
  secretSealed: string | null;
  confirmed: boolean;
}

interface FactorRow {
  id: string;
  user_id: string;
  kind: FactorKind;
  phone: string | null;
  secret_sealed: string | null;
  confirmed_at: Date | null;
}

const toFactor = (row: FactorRow): MfaFactor => ({
  id: row.id,
  userId: row.user_id,
  kind: row.kind,
  phone: row.phone,
  secretSealed: row.secret_sealed,
  confirmed: row.confirmed_at !== null,
});

const COLUMNS = 'id, user_id, kind, phone, secret_sealed, confirmed_at';

/** The user's confirmed factors, in the order email, sms, totp. */
export async function confirmedFactors(db: Queryable, userId: string): Promise<MfaFactor[]> {
  const result = await db.query<FactorRow>(`select ${COLUMNS} from mfa_factors where user_id = $1 and confirmed_at is not null order by kind`, [userId]);
  return result.rows.map(toFactor);
}

/** The factor `id` of `userId`, confirmed or not. */
export async function findFactor(db: Queryable, userId: string, id: string): Promise<MfaFactor | undefined> {
  const result = await db.query<FactorRow>(`select ${COLUMNS} from mfa_factors where id = $1 and user_id = $2`, [id, userId]);
  return result.rows[0] && toFactor(result.rows[0]);
}

/** Starts setting up a factor: it counts only once confirmed. Earlier unconfirmed setups of the kind are dropped. */
export async function createPendingFactor(
  db: Queryable,
  input: { userId: string; kind: FactorKind; phone?: string; secretSealed?: string },
): Promise<string> {
  const id = crypto.randomUUID();
  await db.query('delete from mfa_factors where user_id = $1 and kind = $2 and confirmed_at is null', [input.userId, input.kind]);
  await db.query('insert into mfa_factors (id, user_id, kind, phone, secret_sealed) values ($1, $2, $3, $4, $5)', [
    id,
    input.userId,
    input.kind,
    input.phone ?? null,
    input.secretSealed ?? null,
  ]);
  return id;
}

/**
 * Confirms a factor being set up; a confirmed factor of the same kind it replaces is removed in the same
 * statement order, so the user never has two. Returns false when the setup is gone or already confirmed.
 */
export async function confirmFactor(db: Queryable, userId: string, id: string, now: Date): Promise<boolean> {
  const pending = await db.query<{ kind: FactorKind }>('select kind from mfa_factors where id = $1 and user_id = $2 and confirmed_at is null', [id, userId]);
  const kind = pending.rows[0]?.kind;
  if (!kind) return false;
  await db.query('delete from mfa_factors where user_id = $1 and kind = $2 and confirmed_at is not null', [userId, kind]);
  const confirmed = await db.query('update mfa_factors set confirmed_at = $3 where id = $1 and user_id = $2 and confirmed_at is null', [id, userId, now]);
  return confirmed.rowCount === 1;
}

/**
 * Claims a TOTP time step for the factor, atomically: it succeeds only if no later or equal step was used before,
 * so of any number of concurrent submissions of one code exactly one wins, and a used code never works again.
 */
export async function claimTotpStep(db: Queryable, factorId: string, step: number): Promise<boolean> {
  const result = await db.query(
    'update mfa_factors set last_used_step = $2, failures = 0 where id = $1 and (last_used_step is null or last_used_step < $2)',
    [factorId, step],
  );
  return result.rowCount === 1;
}

/**
 * The seconds the factor still rests after too many wrong codes (`max` within `lockoutSeconds` of the last), 0 when
 * it does not. Inside a transaction it locks the factor's row, so parallel guesses are checked and counted one by one.
 */
export async function totpRestingFor(db: Queryable, factorId: string, now: Date, max: number, lockoutSeconds: number): Promise<number> {
  const result = await db.query<{ failures: number; last_failure_at: Date | null }>('select failures, last_failure_at from mfa_factors where id = $1 for update', [
    factorId,
  ]);
  const row = result.rows[0];
  if (!row || row.failures < max || row.last_failure_at === null) return 0;
  const left = new Date(row.last_failure_at).getTime() + lockoutSeconds * 1000 - now.getTime();
  return left > 0 ? Math.ceil(left / 1000) : 0;
}

/** Counts a wrong TOTP code; a rest that has run out starts the count again. */
export async function recordTotpFailure(db: Queryable, factorId: string, now: Date, lockoutSeconds: number): Promise<void> {
  await db.query(
    `update mfa_factors set failures = case when last_failure_at is null or last_failure_at < $3 then 1 else failures + 1 end, last_failure_at = $2
     where id = $1`,
    [factorId, now, new Date(now.getTime() - lockoutSeconds * 1000)],
  );
}
