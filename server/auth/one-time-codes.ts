import crypto from 'node:crypto';
import { LIMITS } from '../config.ts';
import type { Database, Queryable } from '../db/database.ts';

/** What a one-time code is for (a reset, a second factor at sign-in, a phone being set up); codes of one purpose never unlock another. */
export type CodePurpose = 'password_reset' | 'mfa_email' | 'mfa_sms' | 'mfa_sms_setup';

/** Six digits from a CSPRNG, the one shape of every emailed code. */
export function newSixDigitCode(): string {
  return crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');
}

/** The outcome of redeeming a code. */
export type RedeemResult = 'redeemed' | 'invalid' | 'too_many_attempts';

/**
 * One-time codes: six digits from a CSPRNG, stored only as an HMAC under a server key (so a leaked table cannot be
 * brute-forced offline), valid LIMITS.ONE_TIME_CODE_TTL, single use, and dead after LIMITS.ONE_TIME_CODE_MAX_FAILURES
 * wrong tries per account and purpose.
 */
export function createOneTimeCodes(deps: { db: Database; hashKey: Buffer }) {
  const { db, hashKey } = deps;
  const digest = (userId: string, purpose: CodePurpose, code: string) =>
    crypto.createHmac('sha256', hashKey).update(`${purpose}:${userId}:${code}`).digest('base64url');

  return {
    /** How many codes of `purpose` were issued to the user since `since`. */
    async issuedSince(userId: string, purpose: CodePurpose, since: Date): Promise<number> {
      const result = await db.query<{ n: number }>(
        'select count(*)::int as n from one_time_codes where user_id = $1 and purpose = $2 and created_at > $3',
        [userId, purpose, since],
      );
      return result.rows[0]?.n ?? 0;
    },

    /** Whether a code of `purpose` issued to the user can still be redeemed. */
    async hasLive(userId: string, purpose: CodePurpose, now: Date): Promise<boolean> {
      const result = await db.query<{ n: number }>(
        'select count(*)::int as n from one_time_codes where user_id = $1 and purpose = $2 and consumed_at is null and expires_at > $3',
        [userId, purpose, now],
      );
      return (result.rows[0]?.n ?? 0) > 0;
    },

    /** Issues a new code; earlier live codes stay valid (a late email still works) and the failure count restarts. */
    async issue(userId: string, purpose: CodePurpose, now: Date): Promise<string> {
      const code = newSixDigitCode();
      await db.transaction(async (tx) => {
        await tx.query(
          'insert into one_time_codes (id, user_id, purpose, code_hash, created_at, expires_at) values ($1, $2, $3, $4, $5, $6)',
          [crypto.randomUUID(), userId, purpose, digest(userId, purpose, code), now, new Date(now.getTime() + LIMITS.ONE_TIME_CODE_TTL * 1000)],
        );
        await tx.query('delete from one_time_code_failures where user_id = $1 and purpose = $2', [userId, purpose]);
      });
      return code;
    },

    /**
     * Redeems `code` atomically: of any number of concurrent redemptions of one code, exactly one succeeds.
     * Redeeming uses up every other live code of the purpose too.
     */
    async redeem(userId: string, purpose: CodePurpose, code: string, now: Date): Promise<RedeemResult> {
      return db.transaction(async (tx: Queryable) => {
        // The failure row is locked for the whole check, so parallel wrong guesses are all counted.
        await tx.query(
          'insert into one_time_code_failures (user_id, purpose, failures) values ($1, $2, 0) on conflict (user_id, purpose) do nothing',
          [userId, purpose],
        );
        const failures = await tx.query<{ failures: number }>(
          'select failures from one_time_code_failures where user_id = $1 and purpose = $2 for update',
          [userId, purpose],
        );
        if ((failures.rows[0]?.failures ?? 0) >= LIMITS.ONE_TIME_CODE_MAX_FAILURES) return 'too_many_attempts';
        const used = await tx.query(
          `update one_time_codes set consumed_at = $4
           where user_id = $1 and purpose = $2 and code_hash = $3 and consumed_at is null and expires_at > $4`,
          [userId, purpose, digest(userId, purpose, code), now],
        );
        if (used.rowCount === 1) {
          await tx.query('update one_time_codes set consumed_at = $3 where user_id = $1 and purpose = $2 and consumed_at is null', [userId, purpose, now]);
          await tx.query('delete from one_time_code_failures where user_id = $1 and purpose = $2', [userId, purpose]);
          return 'redeemed';
        }
        const counted = await tx.query<{ failures: number }>(
          'update one_time_code_failures set failures = failures + 1 where user_id = $1 and purpose = $2 returning failures',
          [userId, purpose],
        );
        if ((counted.rows[0]?.failures ?? 0) >= LIMITS.ONE_TIME_CODE_MAX_FAILURES) {
          await tx.query('update one_time_codes set consumed_at = $3 where user_id = $1 and purpose = $2 and consumed_at is null', [userId, purpose, now]);
        }
        return 'invalid';
      });
    },
  };
}

/** The one-time code service. */
export type OneTimeCodes = ReturnType<typeof createOneTimeCodes>;
