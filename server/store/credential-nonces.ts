import type { Queryable } from '../db/database.ts';
import { randomToken, sha256 } from '../crypto/hash.ts';

/** Issues a single-use nonce that the browser binds into its encrypted credentials. */
export async function issueCredentialNonce(db: Queryable, expiresAt: Date): Promise<string> {
  const nonce = randomToken(24);
  await db.query('insert into credential_nonces (nonce_hash, expires_at) values ($1, $2)', [sha256(nonce), expiresAt]);
  return nonce;
}

/** Uses up a nonce; true only for the first use of a live one, even under concurrent requests. */
export async function consumeCredentialNonce(db: Queryable, nonce: string, now: Date): Promise<boolean> {
  const result = await db.query('delete from credential_nonces where nonce_hash = $1 and expires_at > $2', [sha256(nonce), now]);
  return result.rowCount === 1;
}
