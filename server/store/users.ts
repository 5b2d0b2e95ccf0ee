import crypto from 'node:crypto';
import type { Queryable } from '../db/database.ts';

/** A person who signs in, as the rest of the server sees them (never with the password hash). */
export interface User {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}

interface UserRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string | null;
}

/** Emails compare case-insensitively and without surrounding spaces. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function toUser(row: UserRow): User {
  return { id: row.id, email: row.email, firstName: row.first_name, lastName: row.last_name };
}

/** The user with `id`, if any. */
export async function findUserById(db: Queryable, id: string): Promise<User | undefined> {
  const result = await db.query<UserRow>('select id, email, first_name, last_name, password_hash from users where id = $1', [id]);
  return result.rows[0] && toUser(result.rows[0]);
}

/** The user and their password hash for `email`, if any: for the login check only. */
export async function findCredentialsByEmail(db: Queryable, email: string): Promise<{ user: User; passwordHash: string | null } | undefined> {
  const result = await db.query<UserRow>(
    'select id, email, first_name, last_name, password_hash from users where email_normalized = $1',
    [normalizeEmail(email)],
  );
  const row = result.rows[0];
  return row && { user: toUser(row), passwordHash: row.password_hash };
}

/** Thrown when an email is already taken. */
export class DuplicateEmailError extends Error {
  override readonly name = 'DuplicateEmailError';
}

/** Adds a user with an already-hashed password; throws DuplicateEmailError if the email exists. */
export async function insertUser(
  db: Queryable,
  input: { email: string; firstName?: string; lastName?: string; passwordHash: string },
): Promise<User> {
  const id = crypto.randomUUID();
  const result = await db.query<UserRow>(
    `insert into users (id, email, email_normalized, first_name, last_name, password_hash)
     values ($1, $2, $3, $4, $5, $6)
     on conflict (email_normalized) do nothing
     returning id, email, first_name, last_name, password_hash`,
    [id, input.email.trim(), normalizeEmail(input.email), input.firstName ?? '', input.lastName ?? '', input.passwordHash],
  );
  const row = result.rows[0];
  if (!row) throw new DuplicateEmailError(`a user with email ${input.email.trim()} already exists`);
  return toUser(row);
}
