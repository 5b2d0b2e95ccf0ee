import crypto from 'node:crypto';
import { LIMITS } from '../limits.ts';
import type { Database, Queryable } from '../db/database.ts';
import { guessBudget } from './guess-budget.ts';
import { newSixDigitCode } from './one-time-codes.ts';
import { secretKey } from '../crypto/secret-key.ts';

/** The purpose a sign-up's wrong codes are counted under, per address. */
const REGISTRATION_PURPOSE = 'registration';

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
 * per address, across every attempt, browser and code (guess-budget.ts). Six digits from a CSPRNG, stored as an
 * HMAC under a server key, valid LIMITS.ONE_TIME_CODE_TTL, single use; only the address's newest code is valid.
 */
export function createRegistrationCodes(deps: { db: Database; hashKey: Buffer }) {
  const { db } = deps;
  const hashKey = secretKey(deps.hashKey);
  const digest = (registrationId: string, code: string) => crypto.createHmac('sha256', hashKey).update(`registration:${registrationId}:${code}`).digest('base64url');
  const killLiveCodes = (tx: Queryable, emailNormalized: string, now: Date) =>
    tx.query('update registration_codes set consumed_at = $2 where email_normalized = $1 and consumed_at is null', [emailNormalized, now]);
  const guesses = (emailNormalized: string) => ({ subject: emailNormalized, purpose: REGISTRATION_PURPOSE });

  return {
    /** How many codes were issued for the address since `since`, over every attempt. */
    async issuedSince(emailNormalized: string, since: Date): Promise<number> {
      const result = await db.query<{ n: number }>('select count(*)::int as n from registration_codes where email_normalized = $1 and created_at > $2', [
        emailNormalized,
        since,
      ]);
      return result.rows[0]?.n ?? 0;
    },

    /** The seconds until codes for the address may be tried again; 0 while wrong tries are left. */
    restingFor(emailNormalized: string, now: Date): Promise<number> {
      return guessBudget.restingFor(db, guesses(emailNormalized), now);
    },

    /**
     * Issues a new code that supersedes every earlier one for the address; the wrong tries counted so far still count.
     * `deliver` runs in the same transaction, so the message that goes with the code (outbox) exists exactly when it does.
     */
    async issue(owner: CodeOwner, now: Date, deliver?: (tx: Queryable, code: string) => Promise<void>): Promise<string> {
      const code = newSixDigitCode();
      await db.transaction(async (tx) => {
        await killLiveCodes(tx, owner.emailNormalized, now);
        await tx.query(
          `insert into registration_codes (id, registration_id, email_normalized, code_hash, created_at, expires_at)
           values ($1, $2, $3, $4, $5, $6)`,
          [crypto.randomUUID(), owner.registrationId, owner.emailNormalized, digest(owner.registrationId, code), now, new Date(now.getTime() + LIMITS.ONE_TIME_CODE_TTL * 1000)],
        );
        await deliver?.(tx, code);
      });
      return code;
    },

    /**
     * Redeems `code` atomically: of any number of concurrent redemptions, exactly one succeeds, and it uses up the
     * address's other codes. `onRedeemed` runs in the same database transaction, so what the code unlocks (the
     * account) is made exactly once or not at all.
     */
    async redeem<T>(owner: CodeOwner, code: string, now: Date, onRedeemed: (tx: Queryable) => Promise<T>): Promise<RegistrationRedeemResult<T>> {
      const subject = guesses(owner.emailNormalized);
      return db.transaction(async (tx): Promise<RegistrationRedeemResult<T>> => {
        if ((await guessBudget.lock(tx, subject, now)) > 0) return 'too_many_attempts';
        const used = await tx.query(
          `update registration_codes set consumed_at = $3
           where registration_id = $1 and code_hash = $2 and consumed_at is null and expires_at > $3`,
          [owner.registrationId, digest(owner.registrationId, code), now],
        );
        if (used.rowCount === 1) {
          await killLiveCodes(tx, owner.emailNormalized, now);
          await guessBudget.clear(tx, subject);
          return { redeemed: await onRedeemed(tx) };
        }
        // Only a code that was never issued is a guess: a used, superseded or late one (a double submit) costs nothing.
        const issued = await tx.query('select 1 from registration_codes where registration_id = $1 and code_hash = $2 limit 1', [
          owner.registrationId,
          digest(owner.registrationId, code),
        ]);
        if (issued.rows.length === 0 && (await guessBudget.countWrong(tx, subject))) await killLiveCodes(tx, owner.emailNormalized, now);
        return 'invalid';
      });
    },
  };
}

/** The registration code service. */
export type RegistrationCodes = ReturnType<typeof createRegistrationCodes>;
