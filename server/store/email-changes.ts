import type { Queryable } from '../db/database.ts';
import { normalizeEmail } from './users.ts';

/** Keeps the address a user asked to change to, until its code is entered or it expires; a new request replaces it. */
export async function saveEmailChange(db: Queryable, input: { userId: string; newEmail: string; expiresAt: Date }): Promise<void> {
  await db.query(
    `insert into email_changes (user_id, new_email, expires_at) values ($1, $2, $3)
     on conflict (user_id) do update set new_email = excluded.new_email, expires_at = excluded.expires_at`,
    [input.userId, input.newEmail, input.expiresAt],
  );
}

/** The live email change of the user, if any: the address asked for, and when its code expires. */
export async function pendingEmailChange(db: Queryable, userId: string, now: Date): Promise<{ newEmail: string; expiresAt: Date } | undefined> {
  const result = await db.query<{ new_email: string; expires_at: Date }>('select new_email, expires_at from email_changes where user_id = $1 and expires_at > $2', [userId, now]);
  const row = result.rows[0];
  return row && { newEmail: row.new_email, expiresAt: new Date(row.expires_at) };
}

/** Drops the user's pending email change; true when there was one. */
export async function cancelEmailChange(db: Queryable, userId: string): Promise<boolean> {
  return (await db.query('delete from email_changes where user_id = $1', [userId])).rowCount > 0;
}

/** Whether another account already signs in with this address. */
export async function emailTaken(db: Queryable, email: string, userId: string): Promise<boolean> {
  const result = await db.query('select 1 from users where email_normalized = $1 and id <> $2', [normalizeEmail(email), userId]);
  return result.rows.length > 0;
}

/** Makes the pending address the user's; false when another account took it meanwhile (the unique index decides). */
export async function applyEmailChange(db: Queryable, userId: string, newEmail: string): Promise<boolean> {
  const taken = await emailTaken(db, newEmail, userId);
  if (taken) return false;
  // The code sent to the new address proved it.
  await db.query('update users set email = $2, email_normalized = $3, email_verified_at = now(), updated_at = now() where id = $1', [userId, newEmail, normalizeEmail(newEmail)]);
  await db.query('delete from email_changes where user_id = $1', [userId]);
  return true;
}

/**
 * Puts an earlier address back on the account ("This wasn't me" from the mailbox a notice went to, which proves it) and drops any
 * pending change. True when the address changed; false when it was already the account's, or another account
 * has taken it since.
 */
export async function restoreEmail(db: Queryable, userId: string, email: string): Promise<boolean> {
  await cancelEmailChange(db, userId);
  const normalized = normalizeEmail(email);
  const result = await db.query(
    `update users set email = $2, email_normalized = $3, email_verified_at = now(), updated_at = now()
     where id = $1 and email_normalized <> $3 and not exists (select 1 from users other where other.email_normalized = $3 and other.id <> $1)`,
    [userId, email, normalized],
  );
  return result.rowCount > 0;
}
