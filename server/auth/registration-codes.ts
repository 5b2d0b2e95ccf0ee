import crypto from 'node:crypto';
import { LIMITS } from '../config.ts';
import type { Database, Queryable } from '../db/database.ts';
import { newSixDigitCode } from './one-time-codes.ts';

/** The outcome of redeeming a registration code: what `onRedeemed` made, or why nothing was. */
export type RegistrationRedeemResult<T> = { redeemed: T } | 'invalid' | 'too_many_attempts';

/** Who a registration code belongs to: the sign-up attempt, and the address it is for. */
export interface CodeOwner {
  registrationId: string;
  emailNormalized: string;
}

/**
 * Email verification codes of a sign-up, the registration counterpart of one-time-codes.ts: the account does not
 * exist yet, so a code belongs to one pending registration (one browser's attempt) while wrong tries are counted
 * per address, across every attempt and browser. Six digits from a CSPRNG, stored as an HMAC under a server key,
 * valid LIMITS.ONE_TIME_CODE_TTL, single use, and dead after LIMITS.ONE_TIME_CODE_MAX_FAILURES wrong tries.
 */
export function createRegistrationCodes(deps: { db: Database; hashKey: Buffer }) {
  const { db, hashKey } = deps;
  const digest = (registrationId: string, code: string) => crypto.createHmac('sha256', hashKey).update(`registration:${registrationId}:${code}`).digest('base64url');
  const killLiveCodes = (tx: Queryable, emailNormalized: string, now: Date) =>
    tx.query('update registration_codes set consumed_at = $2 where email_normalized = $1 and consumed_at is null', [emailNormalized, now]);

  return {
    /** How many codes were issued for the address since `since`, over every attempt. */
    async issuedSince(emailNormalized: string, since: Date): Promise<number> {
      const result = await db.query<{ n: number }>('select count(*)::int as n from registration_codes where email_normalized = $1 and created_at > $2', [
        emailNormalized,
        since,
      ]);
      return result.rows[0]?.n ?? 0;
    },

    /** Issues a new code; earlier live codes of the attempt stay valid (a late email still works), the failure count restarts. */
    async issue(owner: CodeOwner, now: Date): Promise<string> {
      const code = newSixDigitCode();
      await db.transaction(async (tx) => {
        await tx.query(
          `insert into registration_codes (id, registration_id, email_normalized, code_hash, created_at, expires_at)
           values ($1, $2, $3, $4, $5, $6)`,
          [crypto.randomUUID(), owner.registrationId, owner.emailNormalized, digest(owner.registrationId, code), now, new Date(now.getTime() + LIMITS.ONE_TIME_CODE_TTL * 1000)],
        );
        await tx.query('delete from registration_code_failures where email_normalized = $1', [owner.emailNormalized]);
      });
      return code;
    },

    /**
     * Redeems `code` atomically: of any number of concurrent redemptions, exactly one succeeds, and it uses up the
     * attempt's other codes. `onRedeemed` runs in the same database transaction, so what the code unlocks (the
     * account) is made exactly once or not at all.
     */
    async redeem<T>(owner: CodeOwner, code: string, now: Date, onRedeemed: (tx: Queryable) => Promise<T>): Promise<RegistrationRedeemResult<T>> {
      return db.transaction(async (tx): Promise<RegistrationRedeemResult<T>> => {
        // The failure row is locked for the whole check, so parallel wrong guesses are all counted.
        await tx.query('insert into registration_code_failures (email_normalized, failures) values ($1, 0) on conflict (email_normalized) do nothing', [
          owner.emailNormalized,
        ]);
        const failures = await tx.query<{ failures: number }>('select failures from registration_code_failures where email_normalized = $1 for update', [
          owner.emailNormalized,
        ]);
        if ((failures.rows[0]?.failures ?? 0) >= LIMITS.ONE_TIME_CODE_MAX_FAILURES) return 'too_many_attempts';
        const used = await tx.query(
          `update registration_codes set consumed_at = $3
           where registration_id = $1 and code_hash = $2 and consumed_at is null and expires_at > $3`,
          [owner.registrationId, digest(owner.registrationId, code), now],
        );
        if (used.rowCount === 1) {
          await tx.query('update registration_codes set consumed_at = $2 where registration_id = $1 and consumed_at is null', [owner.registrationId, now]);
          await tx.query('delete from registration_code_failures where email_normalized = $1', [owner.emailNormalized]);
          return { redeemed: await onRedeemed(tx) };
        }
        const counted = await tx.query<{ failures: number }>(
          'update registration_code_failures set failures = failures + 1 where email_normalized = $1 returning failures',
          [owner.emailNormalized],
        );
        if ((counted.rows[0]?.failures ?? 0) >= LIMITS.ONE_TIME_CODE_MAX_FAILURES) await killLiveCodes(tx, owner.emailNormalized, now);
        return 'invalid';
      });
    },
  };
}

/** The registration code service. */
export type RegistrationCodes = ReturnType<typeof createRegistrationCodes>;
