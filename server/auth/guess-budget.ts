import { LIMITS } from '../limits.ts';
import type { Queryable } from '../db/database.ts';

/** Whose wrong codes are counted together: an account (or a sign-up's address) and what the codes are for. */
export interface GuessSubject {
  subject: string;
  purpose: string;
}

const secondsUntil = (at: Date, now: Date) => Math.max(0, Math.ceil((at.getTime() - now.getTime()) / 1000));

/**
 * The wrong codes a subject may enter: LIMITS.ONE_TIME_CODE_MAX_FAILURES per LIMITS.ONE_TIME_CODE_FAILURE_WINDOW,
 * counted across every code issued in that window, so asking for a new code never buys more guesses. The window
 * opens with the first wrong code and its count is shared by every browser and server process.
 */
export const guessBudget = {
  /**
   * Locks the subject's count for the rest of `tx` (parallel guesses queue behind it, so each is counted) and
   * answers the seconds until guessing is allowed again: 0 while guesses are left.
   */
  async lock(tx: Queryable, { subject, purpose }: GuessSubject, now: Date): Promise<number> {
    await tx.query('delete from code_guess_failures where subject = $1 and purpose = $2 and expires_at <= $3', [subject, purpose, now]);
    await tx.query(
      `insert into code_guess_failures (subject, purpose, failures, expires_at) values ($1, $2, 0, $3)
       on conflict (subject, purpose) do nothing`,
      [subject, purpose, new Date(now.getTime() + LIMITS.ONE_TIME_CODE_FAILURE_WINDOW * 1000)],
    );
    const row = (
      await tx.query<{ failures: number; expires_at: Date }>(
        'select failures, expires_at from code_guess_failures where subject = $1 and purpose = $2 for update',
        [subject, purpose],
      )
    ).rows[0];
    return row && row.failures >= LIMITS.ONE_TIME_CODE_MAX_FAILURES ? Math.max(1, secondsUntil(new Date(row.expires_at), now)) : 0;
  },

  /** Counts one wrong code (under `lock`); true when it spent the last guess, so every live code must die. */
  async countWrong(tx: Queryable, { subject, purpose }: GuessSubject): Promise<boolean> {
    const counted = await tx.query<{ failures: number }>(
      'update code_guess_failures set failures = failures + 1 where subject = $1 and purpose = $2 returning failures',
      [subject, purpose],
    );
    return (counted.rows[0]?.failures ?? 0) >= LIMITS.ONE_TIME_CODE_MAX_FAILURES;
  },

  /** The right code proved the owner: the wrong ones before it are forgiven. */
  async clear(tx: Queryable, { subject, purpose }: GuessSubject): Promise<void> {
    await tx.query('delete from code_guess_failures where subject = $1 and purpose = $2', [subject, purpose]);
  },

  /** The seconds until the subject may guess again (0 while guesses are left), without locking. */
  async restingFor(db: Queryable, { subject, purpose }: GuessSubject, now: Date): Promise<number> {
    const row = (
      await db.query<{ failures: number; expires_at: Date }>(
        'select failures, expires_at from code_guess_failures where subject = $1 and purpose = $2 and expires_at > $3',
        [subject, purpose, now],
      )
    ).rows[0];
    return row && row.failures >= LIMITS.ONE_TIME_CODE_MAX_FAILURES ? Math.max(1, secondsUntil(new Date(row.expires_at), now)) : 0;
  },
};
