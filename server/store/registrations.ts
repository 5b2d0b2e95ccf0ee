import crypto from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import { normalizeEmail } from './users.ts';

/** A sign-up waiting for its email code. */
export interface PendingRegistration {
  id: string;
  email: string;
  emailNormalized: string;
  firstName: string;
  lastName: string;
  /** Set when the address already had an account: the attempt can never create or complete anything. */
  existingUserId: string | null;
  attributes: Record<string, unknown>;
  resendAvailableAt: Date;
  /** When the last code was sent (the screen says so). */
  lastSentAt: Date;
}

interface PendingRow {
  id: string;
  email: string;
  email_normalized: string;
  first_name: string;
  last_name: string;
  existing_user_id: string | null;
  attributes: Record<string, unknown>;
  resend_available_at: Date;
  last_sent_at: Date | null;
  created_at: Date;
}

const toPending = (row: PendingRow): PendingRegistration => ({
  id: row.id,
  email: row.email,
  emailNormalized: row.email_normalized,
  firstName: row.first_name,
  lastName: row.last_name,
  existingUserId: row.existing_user_id,
  attributes: row.attributes,
  resendAvailableAt: new Date(row.resend_available_at),
  lastSentAt: new Date(row.last_sent_at ?? row.created_at),
});

/** Records a sign-up attempt; the same statement whether or not the address has an account. */
export async function createPendingRegistration(
  db: Queryable,
  input: { email: string; firstName: string; lastName: string; passwordHash: string; existingUserId: string | null; now: Date; ttlSeconds: number; resendAfterSeconds: number },
): Promise<string> {
  const id = crypto.randomUUID();
  await db.query(
    `insert into pending_registrations
       (id, email, email_normalized, first_name, last_name, password_hash, existing_user_id, created_at, expires_at, resend_available_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      id,
      input.email.trim(),
      normalizeEmail(input.email),
      input.firstName.trim(),
      input.lastName.trim(),
      input.passwordHash,
      input.existingUserId,
      input.now,
      new Date(input.now.getTime() + input.ttlSeconds * 1000),
      new Date(input.now.getTime() + input.resendAfterSeconds * 1000),
    ],
  );
  return id;
}

/** The live, not yet completed sign-up with `id`. */
export async function findPendingRegistration(db: Queryable, id: string, now: Date): Promise<PendingRegistration | undefined> {
  const result = await db.query<PendingRow>(
    `select p.id, p.email, p.email_normalized, p.first_name, p.last_name, p.existing_user_id, p.attributes, p.resend_available_at, p.created_at,
            (select max(c.created_at) from registration_codes c where c.registration_id = p.id) as last_sent_at
     from pending_registrations p where p.id = $1 and p.expires_at > $2 and p.completed_at is null`,
    [id, now],
  );
  return result.rows[0] && toPending(result.rows[0]);
}

/**
 * Claims the next resend: moves the cooldown on only if it has passed, atomically, so two quick clicks send one
 * code. Returns undefined when it has passed, else the seconds still to wait.
 */
export async function claimResend(db: Queryable, id: string, now: Date, cooldownSeconds: number): Promise<number | undefined> {
  const moved = await db.query('update pending_registrations set resend_available_at = $3 where id = $1 and resend_available_at <= $2', [
    id,
    now,
    new Date(now.getTime() + cooldownSeconds * 1000),
  ]);
  if (moved.rowCount === 1) return undefined;
  const row = await db.query<{ resend_available_at: Date }>('select resend_available_at from pending_registrations where id = $1', [id]);
  const at = row.rows[0] ? new Date(row.rows[0].resend_available_at).getTime() : now.getTime();
  return Math.max(1, Math.ceil((at - now.getTime()) / 1000));
}

/** Merges a step's fields into the sign-up's profile attributes (kept until the account is made). */
export async function mergePendingAttributes(db: Queryable, id: string, attributes: Record<string, unknown>): Promise<void> {
  await db.query('update pending_registrations set attributes = attributes || $2::jsonb where id = $1', [id, JSON.stringify(attributes)]);
}

/**
 * Makes the account from a verified sign-up and marks the sign-up completed; the terms its form required are
 * recorded as accepted with it. Returns the new user's id, or
 * undefined when the address was taken meanwhile (then nothing changes).
 */
export async function createUserFromRegistration(db: Queryable, id: string, now: Date): Promise<string | undefined> {
  const result = await db.query<{ id: string }>(
    `insert into users (id, email, email_normalized, first_name, last_name, password_hash, attributes, password_changed_at, created_at, updated_at, terms_accepted_at)
     select $2, email, email_normalized, first_name, last_name, password_hash, attributes, $3, $3, $3, $3 from pending_registrations where id = $1
     on conflict (email_normalized) do nothing
     returning id`,
    [id, crypto.randomUUID(), now],
  );
  await markRegistrationCompleted(db, id, now);
  return result.rows[0]?.id;
}

/** Ends a sign-up: its codes and details can no longer be used. */
export async function markRegistrationCompleted(db: Queryable, id: string, now: Date): Promise<void> {
  await db.query('update pending_registrations set completed_at = $2 where id = $1', [id, now]);
}

/** A pre-registered account (made by an operator) as the completion screen shows it. */
export interface PreRegisteredUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  attributes: Record<string, unknown>;
}

/** The account at `userId` if an operator pre-registered it and the user has not completed it yet. */
export async function findPreRegisteredUser(db: Queryable, userId: string): Promise<PreRegisteredUser | undefined> {
  const result = await db.query<{ id: string; email: string; first_name: string; last_name: string; attributes: Record<string, unknown> }>(
    'select id, email, first_name, last_name, attributes from users where id = $1 and pre_registered',
    [userId],
  );
  const row = result.rows[0];
  return row && { id: row.id, email: row.email, firstName: row.first_name, lastName: row.last_name, attributes: row.attributes };
}

/** Whether the account at `userId` was pre-registered and not completed yet. */
export async function isPreRegistered(db: Queryable, userId: string): Promise<boolean> {
  const result = await db.query<{ pre_registered: boolean }>('select pre_registered from users where id = $1', [userId]);
  return result.rows[0]?.pre_registered === true;
}

/** Completes a pre-registered account: its names, its first password, and the attributes the sign-up collected. */
export async function completePreRegistration(
  db: Queryable,
  input: { userId: string; firstName: string; lastName: string; passwordHash: string; attributes: Record<string, unknown>; now: Date },
): Promise<boolean> {
  const result = await db.query(
    `update users set first_name = $2, last_name = $3, password_hash = $4, password_changed_at = $5, password_temporary = false,
       attributes = attributes || $6::jsonb, pre_registered = false, updated_at = $5
     where id = $1 and pre_registered`,
    [input.userId, input.firstName.trim(), input.lastName.trim(), input.passwordHash, input.now, JSON.stringify(input.attributes)],
  );
  return result.rowCount === 1;
}

/** Whether an address has an account, and whether that account only awaits completion: one query, whichever the answer. */
export async function findAccountState(db: Queryable, email: string): Promise<{ userId: string; preRegistered: boolean } | undefined> {
  const result = await db.query<{ id: string; pre_registered: boolean }>('select id, pre_registered from users where email_normalized = $1', [
    normalizeEmail(email),
  ]);
  const row = result.rows[0];
  return row && { userId: row.id, preRegistered: row.pre_registered };
}

/** Adds an operator's pre-registered account: no password yet; undefined when the address is taken. */
export async function insertPreRegisteredUser(
  db: Queryable,
  input: { email: string; firstName?: string; lastName?: string },
): Promise<{ id: string; email: string; firstName: string; lastName: string } | undefined> {
  const result = await db.query<{ id: string; email: string; first_name: string; last_name: string }>(
    `insert into users (id, email, email_normalized, first_name, last_name, password_hash, pre_registered)
     values ($1, $2, $3, $4, $5, null, true)
     on conflict (email_normalized) do nothing
     returning id, email, first_name, last_name`,
    [crypto.randomUUID(), input.email.trim(), normalizeEmail(input.email), input.firstName?.trim() ?? '', input.lastName?.trim() ?? ''],
  );
  const row = result.rows[0];
  return row && { id: row.id, email: row.email, firstName: row.first_name, lastName: row.last_name };
}
