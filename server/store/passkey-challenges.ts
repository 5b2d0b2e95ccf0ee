import type { Queryable } from '../db/database.ts';

/** What a WebAuthn challenge is for: adding a passkey, or proving one. */
export type PasskeyPurpose = 'register' | 'authenticate';

/** Keeps the challenge of `owner` (a sign-in transaction or an account session) for `purpose`, replacing an earlier one. */
export async function saveChallenge(db: Queryable, input: { owner: string; purpose: PasskeyPurpose; challenge: string; expiresAt: Date }): Promise<void> {
  await db.query(
    `insert into passkey_challenges (owner, purpose, challenge, expires_at) values ($1, $2, $3, $4)
     on conflict (owner, purpose) do update set challenge = excluded.challenge, expires_at = excluded.expires_at`,
    [input.owner, input.purpose, input.challenge, input.expiresAt],
  );
}

/** The live challenge of `owner` for `purpose`, if there is one. */
export async function findChallenge(db: Queryable, owner: string, purpose: PasskeyPurpose, now: Date): Promise<string | undefined> {
  const result = await db.query<{ challenge: string }>('select challenge from passkey_challenges where owner = $1 and purpose = $2 and expires_at > $3', [
    owner,
    purpose,
    now,
  ]);
  return result.rows[0]?.challenge;
}

/**
 * Uses the challenge up, atomically: of parallel answers to one challenge only one gets true, and a replay finds it
 * gone. Called once an answer verified, so a failed try (a cancelled prompt) leaves the challenge to try again with.
 */
export async function consumeChallenge(db: Queryable, owner: string, purpose: PasskeyPurpose, challenge: string): Promise<boolean> {
  const result = await db.query('delete from passkey_challenges where owner = $1 and purpose = $2 and challenge = $3', [owner, purpose, challenge]);
  return result.rowCount === 1;
}
