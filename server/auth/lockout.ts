import { LIMITS } from '../config.ts';
import type { Queryable } from '../db/database.ts';

/**
 * Guessing protection for sign-in. Every attempt is counted *before* the password is checked, in one atomic
 * statement that also refuses it while the wait is running, so parallel guesses cannot slip past the count.
 * A correct password clears the account's count. All state is in the database, shared by every server process.
 *
 * Two limits, as the anchors have them: each account backs off after repeated failures, and an address past
 * LIMITS.IP_FAILURES_PER_WINDOW attempts is slowed, not blocked: from it, only accounts without a failure in the
 * window get their password checked (one guess each), so a person behind the same office or mobile gateway still
 * signs in while an attacker there hammers other accounts.
 */
export interface LoginThrottle {
  /** Counts an attempt on `userId` (if known) from `ip`; false while the account waits, or is not fresh for a slowed address. */
  admit(attempt: { userId: string | undefined; ip: string; now: Date }): Promise<{ allowed: boolean; failures: number }>;
  /** The password was right: the account's count starts again, and the address gets its attempt back. */
  succeeded(attempt: { userId: string; ip: string }): Promise<void>;
}

/** The wait before the next attempt after `failures` failures, in seconds (0 below the threshold). */
export function loginDelaySeconds(failures: number): number {
  if (failures < LIMITS.LOGIN_FAILURES_BEFORE_DELAY) return 0;
  return Math.min(LIMITS.LOGIN_DELAY_BASE * 2 ** (failures - LIMITS.LOGIN_FAILURES_BEFORE_DELAY), LIMITS.LOGIN_DELAY_MAX);
}

/** The throttle over `db`. */
export function createLoginThrottle(db: Queryable): LoginThrottle {
  return {
    async admit({ userId, ip, now }) {
      const byAddress = await db.query<{ failures: number }>(
        `insert into ip_failures (ip, window_start, failures) values ($1, $2::timestamptz, 1)
         on conflict (ip) do update set
           failures = case when ip_failures.window_start <= $2 - make_interval(secs => $3::float8) then 1 else ip_failures.failures + 1 end,
           window_start = case when ip_failures.window_start <= $2 - make_interval(secs => $3::float8) then $2 else ip_failures.window_start end
         returning failures`,
        [ip, now, LIMITS.IP_FAILURE_WINDOW],
      );
      const slowed = (byAddress.rows[0]?.failures ?? 0) > LIMITS.IP_FAILURES_PER_WINDOW;
      if (userId === undefined) return { allowed: true, failures: 0 };
      const byAccount = await db.query<{ failures: number }>(
        `insert into login_failures (user_id, failures, last_failure_at) values ($1, 1, $2)
         on conflict (user_id) do update set failures = login_failures.failures + 1, last_failure_at = $2
         where (not $6::boolean or login_failures.last_failure_at <= $2 - make_interval(secs => $7::float8))
           and (login_failures.failures < $3::int
             or login_failures.last_failure_at
                + make_interval(secs => least($4::float8 * power(2::float8, login_failures.failures - $3::int), $5::float8)) <= $2)
         returning failures`,
        [userId, now, LIMITS.LOGIN_FAILURES_BEFORE_DELAY, LIMITS.LOGIN_DELAY_BASE, LIMITS.LOGIN_DELAY_MAX, slowed, LIMITS.IP_FAILURE_WINDOW],
      );
      const row = byAccount.rows[0];
      return row ? { allowed: true, failures: row.failures } : { allowed: false, failures: 0 };
    },
    async succeeded({ userId, ip }) {
      await db.query('delete from login_failures where user_id = $1', [userId]);
      await db.query('update ip_failures set failures = greatest(failures - 1, 0) where ip = $1', [ip]);
    },
  };
}
