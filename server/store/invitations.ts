import crypto from 'node:crypto';
import { randomToken, sha256 } from '../crypto/hash.ts';
import type { Queryable } from '../db/database.ts';
import { normalizeEmail } from './users.ts';

/** An invitation as the sign-in sees it: never its token, which only the emailed link holds. */
export interface Invitation {
  id: string;
  userId: string;
  email: string;
  companyId: string | null;
  clientId: string;
  expiresAt: Date;
  usedAt: Date | null;
  /** The account has a password (by any path: this invitation, another, a reset, a sign-up): the invitation is dead. */
  accountHasPassword: boolean;
}

interface InvitationRow {
  id: string;
  user_id: string;
  email: string;
  company_id: string | null;
  client_id: string;
  expires_at: Date;
  used_at: Date | null;
  has_password: boolean;
}

const toInvitation = (row: InvitationRow): Invitation => ({
  id: row.id,
  userId: row.user_id,
  email: row.email,
  companyId: row.company_id,
  clientId: row.client_id,
  expiresAt: new Date(row.expires_at),
  usedAt: row.used_at === null ? null : new Date(row.used_at),
  accountHasPassword: row.has_password,
});

const COLUMNS = 'i.id, i.user_id, u.email, i.company_id, i.client_id, i.expires_at, i.used_at, u.password_hash is not null as has_password';

/** The invited person's account: made without a password (nobody can sign in with it until they accept). */
export async function ensureInvitedUser(db: Queryable, email: string): Promise<{ id: string; email: string; hasPassword: boolean }> {
  await db.query('insert into users (id, email, email_normalized) values ($1, $2, $3) on conflict (email_normalized) do nothing', [
    crypto.randomUUID(),
    email.trim(),
    normalizeEmail(email),
  ]);
  const result = await db.query<{ id: string; email: string; password_hash: string | null }>(
    'select id, email, password_hash from users where email_normalized = $1',
    [normalizeEmail(email)],
  );
  const row = result.rows[0]!;
  return { id: row.id, email: row.email, hasPassword: row.password_hash !== null };
}

/** Issues an invitation; returns the random token for the link (only its hash is stored). */
export async function createInvitation(
  db: Queryable,
  input: { userId: string; companyId: string | null; clientId: string; now: Date; expiresAt: Date },
): Promise<string> {
  const token = randomToken();
  await db.query(
    'insert into invitations (id, token_hash, user_id, company_id, client_id, created_at, expires_at) values ($1, $2, $3, $4, $5, $6, $7)',
    [crypto.randomUUID(), sha256(token), input.userId, input.companyId, input.clientId, input.now, input.expiresAt],
  );
  return token;
}

/** The invitation behind a link's token, used or not, expired or not. */
export async function findInvitation(db: Queryable, token: string): Promise<Invitation | undefined> {
  const result = await db.query<InvitationRow>(`select ${COLUMNS} from invitations i join users u on u.id = i.user_id where i.token_hash = $1`, [
    sha256(token),
  ]);
  return result.rows[0] && toInvitation(result.rows[0]);
}

/** The invitation with this id, used or not. */
export async function findInvitationById(db: Queryable, id: string): Promise<Invitation | undefined> {
  const result = await db.query<InvitationRow>(`select ${COLUMNS} from invitations i join users u on u.id = i.user_id where i.id = $1`, [id]);
  return result.rows[0] && toInvitation(result.rows[0]);
}

/**
 * What a link's invitation is at `now`: `used` once it was accepted or its account got a password by any path (so an
 * old link can never replace a password), `expired` past its lifetime, else `usable`.
 */
export function invitationState(invitation: Invitation, now: Date): 'usable' | 'used' | 'expired' {
  if (invitation.usedAt !== null || invitation.accountHasPassword) return 'used';
  return invitation.expiresAt > now ? 'usable' : 'expired';
}

/** Whether an invitation can still be accepted at `now`. */
export function isUsable(invitation: Invitation, now: Date): boolean {
  return invitationState(invitation, now) === 'usable';
}

/**
 * Accepts the invitation, atomically: of concurrent acceptances only one gets true, never after it expired, and never
 * once the account has a password. Every other invitation of the same user dies with it, so an older link cannot set
 * the password again.
 */
export async function redeemInvitation(db: Queryable, id: string, now: Date): Promise<boolean> {
  const result = await db.query<{ user_id: string }>(
    `update invitations set used_at = $2 where id = $1 and used_at is null and expires_at > $2
     and not exists (select 1 from users u where u.id = invitations.user_id and u.password_hash is not null) returning user_id`,
    [id, now],
  );
  const row = result.rows[0];
  if (!row) return false;
  await db.query('update invitations set used_at = $2 where user_id = $1 and used_at is null', [row.user_id, now]);
  return true;
}

/**
 * Marks a dead invitation as renewed, once: of concurrent requests for a fresh link only one gets the invitation
 * back, so a button pressed twice sends one email. Undefined when it was renewed already or was accepted.
 */
export async function claimRenewal(db: Queryable, token: string, now: Date): Promise<Invitation | undefined> {
  const result = await db.query<{ id: string }>(
    `update invitations set renewed_at = $2 where token_hash = $1 and renewed_at is null and used_at is null
     and not exists (select 1 from users u where u.id = invitations.user_id and u.password_hash is not null) returning id`,
    [sha256(token), now],
  );
  const id = result.rows[0]?.id;
  return id === undefined ? undefined : findInvitationById(db, id);
}

/** Where the client app starts its own sign-in (its initiate_login_uri), if it has one. */
export async function clientSignInStart(db: Queryable, clientId: string): Promise<string | undefined> {
  const result = await db.query<{ initiate_login_uri: string | null }>('select initiate_login_uri from clients where client_id = $1', [clientId]);
  return result.rows[0]?.initiate_login_uri ?? undefined;
}

/** Records where the client app starts its own sign-in. */
export async function setClientSignInStart(db: Queryable, clientId: string, uri: string): Promise<void> {
  await db.query('update clients set initiate_login_uri = $2 where client_id = $1', [clientId, uri]);
}

/** What an invited person gives when accepting: the names the account lacked, and the terms accepted at `now`. */
export async function completeInvitedProfile(db: Queryable, userId: string, profile: { firstName: string; lastName: string; now: Date }): Promise<void> {
  await db.query('update users set first_name = $2, last_name = $3, terms_accepted_at = $4, updated_at = $4 where id = $1', [
    userId,
    profile.firstName.trim(),
    profile.lastName.trim(),
    profile.now,
  ]);
}
