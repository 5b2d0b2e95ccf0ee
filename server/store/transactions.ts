import type { Queryable } from '../db/database.ts';
import { randomToken, sha256 } from '../crypto/hash.ts';

/** One sign-in in progress, bound to one oidc-provider interaction and one browser. */
export interface SignInTransaction {
  interactionUid: string;
  clientId: string;
  /** The challenge the user must answer next; the step API refuses any other step. */
  challenge: string;
  userId: string | null;
  data: Record<string, unknown>;
  expiresAt: Date;
}

interface TransactionRow {
  interaction_uid: string;
  client_id: string;
  challenge: string;
  user_id: string | null;
  data: Record<string, unknown>;
  expires_at: Date;
}

const toTransaction = (row: TransactionRow): SignInTransaction => ({
  interactionUid: row.interaction_uid,
  clientId: row.client_id,
  challenge: row.challenge,
  userId: row.user_id,
  data: row.data,
  expiresAt: new Date(row.expires_at),
});

/** Starts a transaction; returns the random token for the browser's cookie (only its hash is stored). */
export async function createTransaction(
  db: Queryable,
  input: { interactionUid: string; clientId: string; challenge: string; expiresAt: Date; data?: Record<string, unknown> },
): Promise<string> {
  const token = randomToken();
  await db.query(
    `insert into transactions (token_hash, interaction_uid, client_id, challenge, expires_at, data) values ($1, $2, $3, $4, $5, $6::jsonb)
     on conflict (interaction_uid) do update set token_hash = excluded.token_hash, challenge = excluded.challenge, expires_at = excluded.expires_at,
       data = excluded.data`,
    [sha256(token), input.interactionUid, input.clientId, input.challenge, input.expiresAt, JSON.stringify(input.data ?? {})],
  );
  return token;
}

/** The live transaction the cookie token points at, if any. */
export async function findTransaction(db: Queryable, token: string, now: Date): Promise<SignInTransaction | undefined> {
  const result = await db.query<TransactionRow>(
    'select interaction_uid, client_id, challenge, user_id, data, expires_at from transactions where token_hash = $1 and expires_at > $2',
    [sha256(token), now],
  );
  return result.rows[0] && toTransaction(result.rows[0]);
}

/**
 * Ends the transaction if it is still at `challenge`, atomically: of two concurrent requests that both answered
 * it, only one gets true. Used when the last step passes and the sign-in is handed back to the provider; the finished
 * sign-in is remembered until `rememberUntil`.
 */
export async function finishTransaction(db: Queryable, token: string, challenge: string, rememberUntil: Date): Promise<boolean> {
  const result = await db.query<{ interaction_uid: string }>(
    `with ended as (delete from transactions where token_hash = $1 and challenge = $2 returning interaction_uid, client_id)
     insert into finished_sign_ins (interaction_uid, client_id, expires_at) select interaction_uid, client_id, $3 from ended
     on conflict (interaction_uid) do update set expires_at = excluded.expires_at
     returning interaction_uid`,
    [sha256(token), challenge, rememberUntil],
  );
  return result.rows.length === 1;
}

/**
 * `finishTransaction` for user `userId`, unless an operator has disabled the account meanwhile (then nothing ends):
 * the check and the end in one round trip.
 */
export async function finishTransactionOfEnabledUser(
  db: Queryable,
  sign: { token: string; challenge: string; userId: string; rememberUntil: Date },
): Promise<'finished' | 'missing' | 'disabled'> {
  const result = await db.query<{ disabled: boolean | null; finished: boolean }>(
    `with account as (select disabled_at is not null as disabled from users where id = $4),
     ended as (
       delete from transactions where token_hash = $1 and challenge = $2 and not exists (select 1 from account where disabled)
       returning interaction_uid, client_id
     ),
     finished as (
       insert into finished_sign_ins (interaction_uid, client_id, expires_at) select interaction_uid, client_id, $3 from ended
       on conflict (interaction_uid) do update set expires_at = excluded.expires_at
       returning interaction_uid
     )
     select (select disabled from account) as disabled, exists (select 1 from finished) as finished`,
    [sha256(sign.token), sign.challenge, sign.rememberUntil, sign.userId],
  );
  const row = result.rows[0];
  if (row?.disabled === true) return 'disabled';
  return row?.finished === true ? 'finished' : 'missing';
}

/** Whether the sign-in of interaction `interactionUid` finished for `clientId` not long ago. */
export async function isFinishedSignIn(db: Queryable, interactionUid: string, clientId: string, now: Date): Promise<boolean> {
  const result = await db.query('select 1 from finished_sign_ins where interaction_uid = $1 and client_id = $2 and expires_at > $3', [
    interactionUid,
    clientId,
    now,
  ]);
  return result.rows.length === 1;
}

/**
 * Moves the transaction from challenge `from` to `to`, atomically: of concurrent requests that both answered
 * `from`, only one moves it; `to.record` is merged into its data in the same statement. Returns false when the
 * transaction was no longer at `from`.
 */
export async function advanceTransaction(
  db: Queryable,
  token: string,
  from: string,
  to: { challenge: string; userId: string; record?: Record<string, unknown> },
): Promise<boolean> {
  const result = await db.query('update transactions set challenge = $3, user_id = $4, data = data || $5::jsonb where token_hash = $1 and challenge = $2', [
    sha256(token),
    from,
    to.challenge,
    to.userId,
    JSON.stringify(to.record ?? {}),
  ]);
  return result.rowCount === 1;
}

/**
 * Merges `patch` into the transaction's data (what the user has settled so far, such as a passed second factor),
 * only while it is still at `challenge`. Returns false when it has moved on or ended.
 */
export async function recordInTransaction(db: Queryable, token: string, challenge: string, patch: Record<string, unknown>): Promise<boolean> {
  const result = await db.query('update transactions set data = data || $3::jsonb where token_hash = $1 and challenge = $2', [
    sha256(token),
    challenge,
    JSON.stringify(patch),
  ]);
  return result.rowCount === 1;
}
