import { LIMITS } from '../config.ts';
import type { Queryable } from '../db/database.ts';
import { normalizeEmail, toCredentials, USER_COLUMNS, type UserCredentials, type UserRow } from '../store/users.ts';

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
  /**
   * Looks up the account of `email` and counts an attempt on it (if it exists) and from `ip`, in one statement;
   * `allowed` is false while the account waits, or is not fresh for a slowed address.
   */
  admit(attempt: { email: string; ip: string; now: Date }): Promise<{ account: UserCredentials | undefined; allowed: boolean; failures: number }>;
  /** The password was right: the account's count starts again, and the address gets its attempt back. */
  succeeded(attempt: { userId: string; ip: string }): Promise<void>;
}

/** The wait before the next attempt after `failures` failures, in seconds (0 below the threshold). */
export function loginDelaySeconds(failures: number): number {
  if (failures < LIMITS.LOGIN_FAILURES_BEFORE_DELAY) return 0;
  return Math.min(LIMITS.LOGIN_DELAY_BASE * 2 ** (failures - LIMITS.LOGIN_FAILURES_BEFORE_DELAY), LIMITS.LOGIN_DELAY_MAX);
}

/** The throttle over `db`. */
interface AdmitRow extends Partial<UserRow> {
  account_failures: number | null;
}

/** The throttle over `db`. */
export function createLoginThrottle(db: Queryable): LoginThrottle {
  return {
    async admit({ email, ip, now }) {
      // One round trip: the account, the address's count and the account's count. The account's upsert reads the
      // address's new count from the statement before it, so a slowed address only gets fresh accounts checked.
      const result = await db.query<AdmitRow>(
        `with account as (
           select ${USER_COLUMNS} from users where email_normalized = $1
         ), by_address as (
           insert into ip_failures (ip, window_start, failures) values ($2, $3::timestamptz, 1)
           on conflict (ip) do update set
             failures = case when ip_failures.window_start <= $3 - make_interval(secs => $4::float8) then 1 else ip_failures.failures + 1 end,
             window_start = case when ip_failures.window_start <= $3 - make_interval(secs => $4::float8) then $3 else ip_failures.window_start end
           returning failures
         ), by_account as (
           insert into login_failures (user_id, failures, last_failure_at)
           select id, 1, $3 from account
           on conflict (user_id) do update set failures = login_failures.failures + 1, last_failure_at = $3
           where (not ((select failures from by_address) > $5::int) or login_failures.last_failure_at <= $3 - make_interval(secs => $4::float8))
             and (login_failures.failures < $6::int
               or login_failures.last_failure_at
                  + make_interval(secs => least($7::float8 * power(2::float8, login_failures.failures - $6::int), $8::float8)) <= $3)
           returning failures
         )
         select account.*, by_account.failures as account_failures
         from (select 1) as attempt left join account on true left join by_account on true`,
        [normalizeEmail(email), ip, now, LIMITS.IP_FAILURE_WINDOW, LIMITS.IP_FAILURES_PER_WINDOW, LIMITS.LOGIN_FAILURES_BEFORE_DELAY, LIMITS.LOGIN_DELAY_BASE, LIMITS.LOGIN_DELAY_MAX],
      );
      const row = result.rows[0];
      if (!row?.id) return { account: undefined, allowed: true, failures: 0 };
      const account = toCredentials(row as UserRow);
      return row.account_failures === null ? { account, allowed: false, failures: 0 } : { account, allowed: true, failures: row.account_failures };
    },
    async succeeded({ userId, ip }) {
      await db.query(
        `with cleared as (delete from login_failures where user_id = $1)
         update ip_failures set failures = greatest(failures - 1, 0) where ip = $2`,
        [userId, ip],
      );
    },
  };
}
