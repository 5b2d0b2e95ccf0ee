import { LIMITS } from '../limits.ts';
import crypto from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import { releaseAttempt } from '../store/lockouts.ts';
import { signInStateColumns, toSignInState, type SignInState, type SignInStateRow } from '../store/sign-in-state.ts';
import { normalizeEmail, toCredentials, USER_COLUMNS, type UserCredentials, type UserRow } from '../store/users.ts';
import { secretKey } from '../crypto/secret-key.ts';

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
   * Looks up the account of `email` and counts an attempt on it (or on the unknown address) and from `ip`, in one
   * statement; `allowed` is false while that subject waits, or is not fresh for a slowed address. The same statement
   * reads what the sign-in of `interactionUid` goes on with if the password is right (the account's SignInState).
   */
  admit(attempt: { email: string; ip: string; now: Date; interactionUid: string }): Promise<ThrottleGate>;
  /** The password was right: the account's count starts again, and the address gets its attempt back. */
  succeeded(attempt: { userId: string; ip: string }): Promise<void>;
}

/** What the throttle decided about one attempt. */
export interface ThrottleGate {
  account: UserCredentials | undefined;
  /** What the account's sign-in goes on with (its factors and companies); read whether or not the password is right. */
  signInState: SignInState | undefined;
  /** False while the subject (the account, or the unknown address) waits, or is not fresh for a slowed address. */
  allowed: boolean;
  /** The subject's failures counting this attempt, when allowed. */
  failures: number;
  /** When refused: the seconds until the subject may try again (at least 1); 0 when allowed. */
  waitSeconds: number;
  /** When allowed: the seconds the subject must wait should this attempt fail (0 when it may try again at once). */
  waitIfWrong: number;
}

/** The wait before the next attempt after `failures` failures, in seconds (0 below the threshold). */
export function loginDelaySeconds(failures: number): number {
  if (failures < LIMITS.LOGIN_FAILURES_BEFORE_DELAY) return 0;
  return Math.min(LIMITS.LOGIN_DELAY_BASE * 2 ** (failures - LIMITS.LOGIN_FAILURES_BEFORE_DELAY), LIMITS.LOGIN_DELAY_MAX);
}

interface AdmitRow extends Partial<UserRow>, SignInStateRow {
  /** The subject's count after this attempt; null when the attempt was refused unchecked. */
  subject_failures: number | null;
  failures_before: number | null;
  last_failure_before: Date | null;
  address_failures: number;
  address_window_start: Date;
}

/**
 * The condition under which a failure row of `table` may be counted (and the password checked) now: the address is
 * not slowed or the row had no failure in its window, and the row's own wait is over. Table names are constants.
 */
const mayGuess = (table: string) => `
  (not ((select failures from by_address) > $5::int) or ${table}.last_failure_at <= $3 - make_interval(secs => $4::float8))
  and (${table}.failures < $6::int
    or ${table}.last_failure_at + make_interval(secs => least($7::float8 * power(2::float8, ${table}.failures - $6::int), $8::float8)) <= $3)`;

const secondsBetween = (from: Date, to: Date) => Math.ceil((to.getTime() - from.getTime()) / 1000);

/**
 * The seconds until a refused subject may guess again: the later of its own wait and, from a slowed address, the end
 * of its failure's window there (or of the address's window, whichever comes first). At least 1.
 */
function waitAfterRefusal(row: AdmitRow, now: Date): number {
  const failures = row.failures_before ?? 0;
  const last = row.last_failure_before ? new Date(row.last_failure_before) : now;
  const ownWait = secondsBetween(now, new Date(last.getTime() + loginDelaySeconds(failures) * 1000));
  const slowed = row.address_failures > LIMITS.IP_FAILURES_PER_WINDOW;
  const addressWait = slowed
    ? Math.min(
        secondsBetween(now, new Date(last.getTime() + LIMITS.IP_FAILURE_WINDOW * 1000)),
        secondsBetween(now, new Date(new Date(row.address_window_start).getTime() + LIMITS.IP_FAILURE_WINDOW * 1000)),
      )
    : 0;
  return Math.max(1, ownWait, addressWait);
}

/**
 * The seconds a checked attempt's subject must wait should its password be wrong: its own wait after this failure and,
 * from a slowed address, the rest of the address's window (its failure there is then recent). 0 when none.
 */
function waitAfterFailure(row: AdmitRow, failures: number, now: Date): number {
  const slowed = row.address_failures > LIMITS.IP_FAILURES_PER_WINDOW;
  const addressWait = slowed ? secondsBetween(now, new Date(new Date(row.address_window_start).getTime() + LIMITS.IP_FAILURE_WINDOW * 1000)) : 0;
  return Math.max(loginDelaySeconds(failures), addressWait);
}

/**
 * The throttle over `db`. An address without an account is counted under its HMAC with `emailKey`, so the table
 * never holds the addresses people typed, nor hashes of them that a guess could match.
 */
export function createLoginThrottle(db: Queryable, emailKey: Buffer): LoginThrottle {
  const hmacKey = secretKey(emailKey);
  const unknownEmailKey = (emailNormalized: string) => crypto.createHmac('sha256', hmacKey).update(emailNormalized).digest('base64url');
  return {
    async admit({ email, ip, now, interactionUid }) {
      // One round trip: the account, the address's count and the subject's count. The subject is the account, or for
      // an address without one its own row, counted alike so a refusal tells nothing about which exists. The
      // subject's upsert reads the address's new count from the statement before it, so a slowed address only gets
      // fresh subjects checked. `before` sees the rows as they were before this statement.
      const emailNormalized = normalizeEmail(email);
      const result = await db.query<AdmitRow>(
        `with account as (
           select ${USER_COLUMNS} from users where email_normalized = $1
         ), by_address as (
           insert into ip_failures (ip, window_start, failures) values ($2, $3::timestamptz, 1)
           on conflict (ip) do update set
             failures = case when ip_failures.window_start <= $3 - make_interval(secs => $4::float8) then 1 else ip_failures.failures + 1 end,
             window_start = case when ip_failures.window_start <= $3 - make_interval(secs => $4::float8) then $3 else ip_failures.window_start end
           returning failures, window_start
         ), before as (
           select failures, last_failure_at from login_failures where user_id = (select id from account)
           union all
           select failures, last_failure_at from unknown_email_login_failures where email_key = $9 and not exists (select 1 from account)
         ), by_account as (
           insert into login_failures (user_id, failures, last_failure_at)
           select id, 1, $3 from account
           on conflict (user_id) do update set failures = login_failures.failures + 1, last_failure_at = $3
           where ${mayGuess('login_failures')}
           returning failures
         ), by_unknown as (
           insert into unknown_email_login_failures (email_key, failures, last_failure_at)
           select $9, 1, $3 where not exists (select 1 from account)
           on conflict (email_key) do update set failures = unknown_email_login_failures.failures + 1, last_failure_at = $3
           where ${mayGuess('unknown_email_login_failures')}
           returning failures
         )
         select account.*, ${signInStateColumns('account.id', '$10')}, coalesce(by_account.failures, by_unknown.failures) as subject_failures,
           before.failures as failures_before, before.last_failure_at as last_failure_before,
           by_address.failures as address_failures, by_address.window_start as address_window_start
         from by_address left join account on true left join by_account on true left join by_unknown on true left join before on true`,
        [emailNormalized, ip, now, LIMITS.IP_FAILURE_WINDOW, LIMITS.IP_FAILURES_PER_WINDOW, LIMITS.LOGIN_FAILURES_BEFORE_DELAY, LIMITS.LOGIN_DELAY_BASE, LIMITS.LOGIN_DELAY_MAX, unknownEmailKey(emailNormalized), interactionUid],
      );
      const row = result.rows[0];
      if (!row) throw new Error('the sign-in throttle answered no row');
      const account = row.id ? toCredentials(row as UserRow) : undefined;
      const signInState = account && toSignInState(row);
      if (row.subject_failures === null) return { account, signInState, allowed: false, failures: 0, waitSeconds: waitAfterRefusal(row, now), waitIfWrong: 0 };
      return { account, signInState, allowed: true, failures: row.subject_failures, waitSeconds: 0, waitIfWrong: waitAfterFailure(row, row.subject_failures, now) };
    },
    async succeeded({ userId, ip }) {
      await releaseAttempt(db, userId, ip);
    },
  };
}
