import type { Queryable } from '../db/database.ts';

/** An account's guessing counters: failed passwords, wrong codes per purpose, wrong authenticator codes. */
export interface LockoutCounters {
  loginFailures: number;
  lastLoginFailureAt: Date | undefined;
  /** Wrong one-time codes per purpose, in the window that ends at `until`. */
  codeFailures: Array<{ purpose: string; failures: number; until: Date }>;
  /** Wrong authenticator codes in a row, and when the last was entered. */
  totpFailures: number;
  lastTotpFailureAt: Date | undefined;
}

/**
 * The common-table expressions that release a right password's attempt: the account's failure count starts again
 * and the address (`ip`, a SQL expression; null releases nothing) gets its attempt back. `userId` and `ip` are
 * parameters of the enclosing statement, so the release rides with the sign-in's next write.
 */
export function releaseAttemptCtes(userId: string, ip: string): string {
  return `failures_cleared as (delete from login_failures where user_id = ${userId} and ${ip}::text is not null),
     address_released as (update ip_failures set failures = greatest(failures - 1, 0) where ip = ${ip}::text)`;
}

/** Releases a right password's attempt on its own (see releaseAttemptCtes), when no write of the sign-in carries it. */
export async function releaseAttempt(db: Queryable, userId: string, ip: string): Promise<void> {
  await db.query(`with ${releaseAttemptCtes('$1', '$2')} select 1`, [userId, ip]);
}

const dateOrUndefined = (value: Date | null | undefined) => (value ? new Date(value) : undefined);

/** The account's counters, as they are now. */
export async function readLockoutCounters(db: Queryable, userId: string, now: Date): Promise<LockoutCounters> {
  const login = await db.query<{ failures: number; last_failure_at: Date }>('select failures, last_failure_at from login_failures where user_id = $1', [userId]);
  const codes = await db.query<{ purpose: string; failures: number; expires_at: Date }>(
    'select purpose, failures, expires_at from code_guess_failures where subject = $1 and expires_at > $2 and failures > 0 order by purpose',
    [userId, now],
  );
  const totp = await db.query<{ failures: number; last_failure_at: Date | null }>(
    "select failures, last_failure_at from mfa_factors where user_id = $1 and kind = 'totp' and confirmed_at is not null",
    [userId],
  );
  return {
    loginFailures: login.rows[0]?.failures ?? 0,
    lastLoginFailureAt: dateOrUndefined(login.rows[0]?.last_failure_at),
    codeFailures: codes.rows.map((row) => ({ purpose: row.purpose, failures: row.failures, until: new Date(row.expires_at) })),
    totpFailures: totp.rows[0]?.failures ?? 0,
    lastTotpFailureAt: dateOrUndefined(totp.rows[0]?.last_failure_at),
  };
}

/**
 * Clears every guessing counter of the account: its next password and codes are checked at once. The codes it was
 * sent go too (a live one dies), so the hourly caps of codes sent start again.
 */
export async function clearLockoutCounters(db: Queryable, userId: string): Promise<void> {
  await db.query('delete from login_failures where user_id = $1', [userId]);
  await db.query('delete from one_time_codes where user_id = $1', [userId]);
  await db.query('delete from code_guess_failures where subject = $1', [userId]);
  await db.query('update mfa_factors set failures = 0, last_failure_at = null where user_id = $1', [userId]);
}
