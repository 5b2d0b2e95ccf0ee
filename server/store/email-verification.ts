import type { Queryable } from '../db/database.ts';

/**
 * Records that the person proved they receive mail at the account's address (they entered a code, or followed a link,
 * sent there), from then on `email_verified: true`. With `emailNormalized`, only while that is still the account's
 * address: a proof of an address the account has since left proves nothing about the new one.
 */
export async function markEmailVerified(db: Queryable, userId: string, at: Date, emailNormalized?: string): Promise<void> {
  await db.query('update users set email_verified_at = $2 where id = $1 and email_verified_at is null and ($3::text is null or email_normalized = $3)', [
    userId,
    at,
    emailNormalized ?? null,
  ]);
}
