import crypto from 'node:crypto';
import type { Queryable } from '../db/database.ts';

/** The kinds of second factor. A person may have several passkeys; of every other kind, one. */
export const FACTOR_KINDS = ['email', 'sms', 'totp', 'passkey'] as const;
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
  /** The name the person gave it on the account page, if any. */
  label: string | null;
  /** The one the sign-in asks for first (the account page's "Make default"). */
  isDefault: boolean;
}

/** A mfa_factors row as FACTOR_COLUMNS read it. */
export interface FactorRow {
  id: string;
  user_id: string;
  kind: FactorKind;
  phone: string | null;
  secret_sealed: string | null;
  confirmed_at: Date | null;
  label?: string | null;
  is_default?: boolean;
}

/** The factor a row holds. */
export const toFactor = (row: FactorRow): MfaFactor => ({
  id: row.id,
  userId: row.user_id,
  kind: row.kind,
  phone: row.phone,
  secretSealed: row.secret_sealed,
  confirmed: row.confirmed_at !== null,
  label: row.label ?? null,
  isDefault: row.is_default === true,
});

/** The columns a FactorRow is read from. */
export const FACTOR_COLUMNS = 'id, user_id, kind, phone, secret_sealed, confirmed_at, label, is_default';

/** The user's confirmed factors, in the order email, sms, totp. */
export async function confirmedFactors(db: Queryable, userId: string): Promise<MfaFactor[]> {
  const result = await db.query<FactorRow>(`select ${FACTOR_COLUMNS} from mfa_factors where user_id = $1 and confirmed_at is not null order by kind`, [userId]);
  return result.rows.map(toFactor);
}

/** The factor `id` of `userId`, confirmed or not. */
export async function findFactor(db: Queryable, userId: string, id: string): Promise<MfaFactor | undefined> {
  const result = await db.query<FactorRow>(`select ${FACTOR_COLUMNS} from mfa_factors where id = $1 and user_id = $2`, [id, userId]);
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

/** What an authenticator code did to its factor: claimed its time step, or not; and how long the factor rests. */
export interface TotpAttempt {
  claimed: boolean;
  /** Seconds the factor still rests after too many wrong codes; while it rests nothing is checked or counted. */
  restingSeconds: number;
  /** The wrong codes in a row counting this one, when this one was wrong. */
  failures: number | undefined;
}

/**
 * Settles one authenticator code in one statement, holding the factor's row: while the factor rests (`max` wrong
 * codes within `lockoutSeconds` of the last) nothing happens; else a code matching no step (`step` undefined) counts
 * as a wrong one. A rest that has run out does not start the count again (only a right code, or `forgottenAfter`
 * quiet seconds, do), so after the first rest every further wrong code rests the factor again; a matching one claims its time step only if
 * no later or equal step was used before, so of any number of concurrent submissions of one code exactly one wins.
 * A claim also notes the factor as used (see markFactorUsed), in the same statement.
 */
export async function attemptTotpStep(
  db: Queryable,
  factorId: string,
  step: number | undefined,
  now: Date,
  rest: { max: number; lockoutSeconds: number; forgottenAfter: number },
): Promise<TotpAttempt> {
  const result = await db.query<{ resting_until: Date | null; claimed: boolean; failures: number | null }>(
    `with current as (
       select id, case when failures >= $4::int and last_failure_at is not null
                       and last_failure_at + make_interval(secs => $5::float8) > $3 then last_failure_at + make_interval(secs => $5::float8) end as resting_until
       from mfa_factors where id = $1 for update
     ), claimed as (
       update mfa_factors f set last_used_step = $2::bigint, failures = 0, last_used_at = $3
       from current c
       where f.id = c.id and c.resting_until is null and $2::bigint is not null and (f.last_used_step is null or f.last_used_step < $2::bigint)
       returning f.id
     ), failed as (
       update mfa_factors f
       set failures = case when f.last_failure_at is null or f.last_failure_at < $3 - make_interval(secs => $6::float8) then 1 else f.failures + 1 end,
           last_failure_at = $3
       from current c
       where f.id = c.id and c.resting_until is null and $2::bigint is null
       returning f.failures
     )
     select c.resting_until, exists (select 1 from claimed) as claimed, (select failures from failed) as failures from current c`,
    [factorId, step ?? null, now, rest.max, rest.lockoutSeconds, rest.forgottenAfter],
  );
  const row = result.rows[0];
  const restingUntil = row?.resting_until ? new Date(row.resting_until).getTime() : undefined;
  return {
    claimed: row?.claimed === true,
    restingSeconds: restingUntil === undefined ? 0 : Math.max(1, Math.ceil((restingUntil - now.getTime()) / 1000)),
    failures: row?.failures ?? undefined,
  };
}
