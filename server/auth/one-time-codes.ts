import crypto from 'node:crypto';
import { LIMITS } from '../limits.ts';
import type { Database, Queryable } from '../db/database.ts';
import { guessBudget } from './guess-budget.ts';
import { secretKey } from '../crypto/secret-key.ts';

/** What a one-time code is for (a reset, a second factor at sign-in, a phone being set up); codes of one purpose never unlock another. */
export type CodePurpose = 'password_reset' | 'mfa_email' | 'mfa_sms' | 'mfa_sms_setup' | 'email_change';

/** Six digits from a CSPRNG, the one shape of every emailed code. */
export function newSixDigitCode(): string {
  return crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');
}

/** The outcome of redeeming a code. */
export type RedeemResult = 'redeemed' | 'invalid' | 'too_many_attempts';

/**
 * One-time codes: six digits from a CSPRNG, stored only as an HMAC under a server key (so a leaked table cannot be
 * brute-forced offline), valid LIMITS.ONE_TIME_CODE_TTL, single use. Only the newest code of a purpose is valid, and
 * wrong tries are counted per account and purpose across codes (guess-budget.ts): once they are spent, every
 * outstanding code of the purpose dies.
 */
export function createOneTimeCodes(deps: { db: Database; hashKey: Buffer }) {
  const { db } = deps;
  const hashKey = secretKey(deps.hashKey);
  const digest = (userId: string, purpose: CodePurpose, code: string) =>
    crypto.createHmac('sha256', hashKey).update(`${purpose}:${userId}:${code}`).digest('base64url');
  const killLiveCodes = (tx: Queryable, userId: string, purpose: CodePurpose, now: Date) =>
    tx.query('update one_time_codes set consumed_at = $3 where user_id = $1 and purpose = $2 and consumed_at is null', [userId, purpose, now]);

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

    /** The seconds until the user may try codes of `purpose` again; 0 while wrong tries are left. */
    restingFor(userId: string, purpose: CodePurpose, now: Date): Promise<number> {
      return guessBudget.restingFor(db, { subject: userId, purpose }, now);
    },

    /**
     * Issues a new code that supersedes every earlier one of the purpose; the wrong tries counted so far still count.
     * `deliver` runs in the same transaction, so the message carrying the code (outbox) exists exactly when the code does.
     */
    async issue(userId: string, purpose: CodePurpose, now: Date, deliver?: (tx: Queryable, code: string) => Promise<void>): Promise<string> {
      const code = newSixDigitCode();
      await db.transaction(async (tx) => {
        await killLiveCodes(tx, userId, purpose, now);
        await tx.query(
          'insert into one_time_codes (id, user_id, purpose, code_hash, created_at, expires_at) values ($1, $2, $3, $4, $5, $6)',
          [crypto.randomUUID(), userId, purpose, digest(userId, purpose, code), now, new Date(now.getTime() + LIMITS.ONE_TIME_CODE_TTL * 1000)],
        );
        await deliver?.(tx, code);
      });
      return code;
    },

    /** Takes back a code whose message never went out: it cannot be entered, and it counts toward no hourly cap. */
    async withdraw(userId: string, purpose: CodePurpose, code: string): Promise<void> {
      await db.query('delete from one_time_codes where user_id = $1 and purpose = $2 and code_hash = $3', [userId, purpose, digest(userId, purpose, code)]);
    },

    /**
     * Redeems `code` atomically: of any number of concurrent redemptions of one code, exactly one succeeds.
     * Redeeming uses up every other live code of the purpose too.
     */
    async redeem(userId: string, purpose: CodePurpose, code: string, now: Date): Promise<RedeemResult> {
      const subject = { subject: userId, purpose };
      return db.transaction(async (tx: Queryable) => {
        if ((await guessBudget.lock(tx, subject, now)) > 0) return 'too_many_attempts';
        const used = await tx.query(
          `update one_time_codes set consumed_at = $4
           where user_id = $1 and purpose = $2 and code_hash = $3 and consumed_at is null and expires_at > $4`,
          [userId, purpose, digest(userId, purpose, code), now],
        );
        if (used.rowCount === 1) {
          await killLiveCodes(tx, userId, purpose, now);
          await guessBudget.clear(tx, subject);
          return 'redeemed';
        }
        // Only a code that was never issued is a guess: a used, superseded or late one (a double submit) costs nothing.
        const issued = await tx.query('select 1 from one_time_codes where user_id = $1 and purpose = $2 and code_hash = $3 limit 1', [
          userId,
          purpose,
          digest(userId, purpose, code),
        ]);
        if (issued.rows.length === 0 && (await guessBudget.countWrong(tx, subject))) await killLiveCodes(tx, userId, purpose, now);
        return 'invalid';
      });
    },
  };
}

/** The one-time code service. */
export type OneTimeCodes = ReturnType<typeof createOneTimeCodes>;
