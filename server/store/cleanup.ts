import { LIMITS } from '../limits.ts';
import type { Queryable } from '../db/database.ts';

/**
 * Tables whose rows are useless once `expires_at` has passed, and how long after that to keep them.
 * One-time codes and sign-ups (with their codes) stay an hour longer: the per-hour limits on emails count them.
 */
const EXPIRING_TABLES = [
  { table: 'transactions', keepSeconds: 0 },
  { table: 'credential_nonces', keepSeconds: 0 },
  { table: 'oidc_payloads', keepSeconds: 0 },
  { table: 'one_time_codes', keepSeconds: 3600 },
  { table: 'sign_in_companies', keepSeconds: 0 },
  { table: 'pending_registrations', keepSeconds: 3600 },
  { table: 'code_guess_failures', keepSeconds: 0 },
  { table: 'outbox', keepSeconds: 0 },
  { table: 'security_notice_links', keepSeconds: 0 },
  { table: 'demo_logouts', keepSeconds: 0 },
  { table: 'trusted_devices', keepSeconds: 0 },
  { table: 'finished_sign_ins', keepSeconds: 0 },
  { table: 'passkey_challenges', keepSeconds: 0 },
  { table: 'sign_in_step_ups', keepSeconds: 0 },
] as const;

/** Failure counts, forgotten after LIMITS.LOGIN_FAILURES_FORGOTTEN_AFTER without a failure. */
const FAILURE_COUNT_TABLES = ['login_failures', 'unknown_email_login_failures'] as const;

/** Deletes expired transactions, credential nonces, provider rows, old one-time codes and forgotten failure counts. */
export async function purgeExpired(db: Queryable, now: Date): Promise<number> {
  let deleted = 0;
  for (const { table, keepSeconds } of EXPIRING_TABLES) {
    const cutoff = new Date(now.getTime() - keepSeconds * 1000);
    deleted += (await db.query(`delete from ${table} where expires_at <= $1`, [cutoff])).rowCount;
  }
  const forgottenBefore = new Date(now.getTime() - LIMITS.LOGIN_FAILURES_FORGOTTEN_AFTER * 1000);
  for (const table of FAILURE_COUNT_TABLES) {
    deleted += (await db.query(`delete from ${table} where last_failure_at <= $1`, [forgottenBefore])).rowCount;
  }
  return deleted;
}
