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

/** The live email change of the user, if any. */
export async function pendingEmailChange(db: Queryable, userId: string, now: Date): Promise<string | undefined> {
  const result = await db.query<{ new_email: string }>('select new_email from email_changes where user_id = $1 and expires_at > $2', [userId, now]);
  return result.rows[0]?.new_email;
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
  await db.query('update users set email = $2, email_normalized = $3, updated_at = now() where id = $1', [userId, newEmail, normalizeEmail(newEmail)]);
  await db.query('delete from email_changes where user_id = $1', [userId]);
  return true;
}
