import crypto from 'node:crypto';
import type { Queryable } from '../db/database.ts';

/** A person who signs in, as the rest of the server sees them (never with the password hash). */
export interface User {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}

/** A users row as the credential columns read it. */
export interface UserRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string | null;
  password_changed_at: Date;
  password_temporary: boolean;
  reset_required: boolean;
  disabled_at: Date | null;
}

/** What the sign-in check needs: the hash and the password's state. */
export interface UserCredentials {
  user: User;
  passwordHash: string | null;
  passwordChangedAt: Date;
  /** Set by an operator's temporary password: it must be replaced at the next sign-in. */
  passwordTemporary: boolean;
  /** Set by an operator: the user must go through password recovery before signing in. */
  resetRequired: boolean;
  /** Set by an operator: sign-in is refused, with the answer a wrong password gets. */
  disabled: boolean;
}

/** The columns a UserRow is read from. */
export const USER_COLUMNS = 'id, email, first_name, last_name, password_hash, password_changed_at, password_temporary, reset_required, disabled_at';

/** Emails compare case-insensitively and without surrounding spaces. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The user a users row holds. */
export function toUser(row: UserRow): User {
  return { id: row.id, email: row.email, firstName: row.first_name, lastName: row.last_name };
}

/**
 * Locks user `userId`'s row for the rest of the transaction `tx`, so requests changing one account's dependent rows
 * run one after another. NO KEY UPDATE: a row inserted with a foreign key to the user holds the row's KEY SHARE lock, which FOR
 * UPDATE would conflict with (a deadlock between two such requests, and a wait for every other one).
 */
export async function lockUserRow(tx: Queryable, userId: string): Promise<void> {
  await tx.query('select 1 from users where id = $1 for no key update', [userId]);
}

/** The user with `id`, if any. */
export async function findUserById(db: Queryable, id: string): Promise<User | undefined> {
  const result = await db.query<UserRow>(`select ${USER_COLUMNS} from users where id = $1`, [id]);
  return result.rows[0] && toUser(result.rows[0]);
}

/** The password state a users row holds. */
export function toCredentials(row: UserRow): UserCredentials {
  return {
    user: toUser(row),
    passwordHash: row.password_hash,
    passwordChangedAt: new Date(row.password_changed_at),
    passwordTemporary: row.password_temporary,
    resetRequired: row.reset_required,
    disabled: row.disabled_at !== null,
  };
}

/** The user and their password state for `email`, if any: for password checks only. */
export async function findCredentialsByEmail(db: Queryable, email: string): Promise<UserCredentials | undefined> {
  const result = await db.query<UserRow>(`select ${USER_COLUMNS} from users where email_normalized = $1`, [normalizeEmail(email)]);
  return result.rows[0] && toCredentials(result.rows[0]);
}

/** The user and their password state by id. */
export async function findCredentialsById(db: Queryable, id: string): Promise<UserCredentials | undefined> {
  const result = await db.query<UserRow>(`select ${USER_COLUMNS} from users where id = $1`, [id]);
  return result.rows[0] && toCredentials(result.rows[0]);
}

/** Replaces the password; a new password is never temporary and satisfies any forced reset. */
export async function setPassword(db: Queryable, userId: string, passwordHash: string, now: Date): Promise<void> {
  await db.query(
    `update users set password_hash = $2, password_changed_at = $3, password_temporary = false, reset_required = false, updated_at = $3
     where id = $1`,
    [userId, passwordHash, now],
  );
}

/** Marks the user so the next sign-in sends them through password recovery; false when no such user. */
export async function requirePasswordReset(db: Queryable, email: string): Promise<User | undefined> {
  const result = await db.query<UserRow>(
    `update users set reset_required = true, updated_at = now() where email_normalized = $1 returning ${USER_COLUMNS}`,
    [normalizeEmail(email)],
  );
  return result.rows[0] && toUser(result.rows[0]);
}

/** Marks the user (by id) so the next sign-in sends them through password recovery. */
export async function requirePasswordResetById(db: Queryable, userId: string): Promise<void> {
  await db.query('update users set reset_required = true, updated_at = now() where id = $1', [userId]);
}

/** Disables or enables the account; answers whether it changed (false when it already was so, or no such user). */
export async function setUserDisabled(db: Queryable, userId: string, disabledAt: Date | null): Promise<boolean> {
  const result = await db.query(
    'update users set disabled_at = $2, updated_at = now() where id = $1 and (disabled_at is null) <> ($2::timestamptz is null)',
    [userId, disabledAt],
  );
  return result.rowCount === 1;
}

/** When the account was disabled, if it is. */
export async function userDisabledAt(db: Queryable, userId: string): Promise<Date | undefined> {
  const result = await db.query<{ disabled_at: Date | null }>('select disabled_at from users where id = $1', [userId]);
  const at = result.rows[0]?.disabled_at;
  return at ? new Date(at) : undefined;
}

/** The email of each of these users (by id). */
export async function emailsOf(db: Queryable, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const result = await db.query<{ id: string; email: string }>('select id, email from users where id = any($1::uuid[])', [ids]);
  return new Map(result.rows.map((row) => [row.id, row.email]));
}

/** Thrown when an email is already taken. */
export class DuplicateEmailError extends Error {
  override readonly name = 'DuplicateEmailError';
}

/** Adds a user with an already-hashed password; throws DuplicateEmailError if the email exists. */
export async function insertUser(
  db: Queryable,
  input: { email: string; firstName?: string; lastName?: string; passwordHash: string; passwordTemporary?: boolean },
): Promise<User> {
  const id = crypto.randomUUID();
  const result = await db.query<UserRow>(
    `insert into users (id, email, email_normalized, first_name, last_name, password_hash, password_temporary)
     values ($1, $2, $3, $4, $5, $6, $7)
     on conflict (email_normalized) do nothing
     returning ${USER_COLUMNS}`,
    [id, input.email.trim(), normalizeEmail(input.email), input.firstName ?? '', input.lastName ?? '', input.passwordHash, input.passwordTemporary ?? false],
  );
  const row = result.rows[0];
  if (!row) throw new DuplicateEmailError(`a user with email ${input.email.trim()} already exists`);
  return toUser(row);
}
