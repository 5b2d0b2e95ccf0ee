import type { Queryable } from '../db/database.ts';
import { randomToken, sha256 } from '../crypto/hash.ts';
import { releaseAttemptCtes } from './lockouts.ts';
import { toUser, type User, type UserRow } from './users.ts';

/** One sign-in in progress, bound to one oidc-provider interaction and one browser. */
export interface SignInTransaction {
  interactionUid: string;
  clientId: string;
  /** The challenge the user must answer next; the step API refuses any other step. */
  challenge: string;
  userId: string | null;
  data: Record<string, unknown>;
  /** The steps whose calls the server admitted, the current one last (contract/flow-graph.ts `Journey`). */
  steps: readonly string[];
  expiresAt: Date;
}

/** A transactions row as TRANSACTION_COLUMNS read it. */
export interface TransactionRow {
  interaction_uid: string;
  client_id: string;
  challenge: string;
  user_id: string | null;
  data: Record<string, unknown>;
  steps: string[];
  expires_at: Date;
}

/** The columns a TransactionRow is read from. */
export const TRANSACTION_COLUMNS = 'interaction_uid, client_id, challenge, user_id, data, steps, expires_at';

/** The transaction a row holds. */
export const toTransaction = (row: TransactionRow): SignInTransaction => ({
  interactionUid: row.interaction_uid,
  clientId: row.client_id,
  challenge: row.challenge,
  userId: row.user_id,
  data: row.data,
  steps: row.steps,
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
       data = excluded.data, steps = '{}'`,
    [sha256(token), input.interactionUid, input.clientId, input.challenge, input.expiresAt, JSON.stringify(input.data ?? {})],
  );
  return token;
}

/** The live transaction the cookie token points at, if any. */
export async function findTransaction(db: Queryable, token: string, now: Date): Promise<SignInTransaction | undefined> {
  const result = await db.query<TransactionRow>(
    `select ${TRANSACTION_COLUMNS} from transactions where token_hash = $1 and expires_at > $2`,
    [sha256(token), now],
  );
  return result.rows[0] && toTransaction(result.rows[0]);
}

/**
 * The live transaction the cookie token points at, if any; while it is at one of `challenges`, the credential
 * `nonce` is used up in the same statement (see consumeCredentialNonce): `nonceUsed` says whether it was
 * live and unused, even under concurrent requests.
 */
export async function findTransactionUsingNonce(
  db: Queryable,
  token: string,
  now: Date,
  nonce: string,
  challenges: readonly string[],
): Promise<{ transaction: SignInTransaction; nonceUsed: boolean } | undefined> {
  const result = await db.query<TransactionRow & { nonce_used: boolean }>(
    `with found as (
       select ${TRANSACTION_COLUMNS} from transactions where token_hash = $1 and expires_at > $2
     ), used as (
       delete from credential_nonces where nonce_hash = $3 and expires_at > $2 and exists (select 1 from found where challenge = any($4::text[]))
       returning 1
     )
     select found.*, exists (select 1 from used) as nonce_used from found`,
    [sha256(token), now, sha256(nonce), challenges],
  );
  const row = result.rows[0];
  return row && { transaction: toTransaction(row), nonceUsed: row.nonce_used };
}

/**
 * Notes that the transaction's call of step `step` was admitted: it becomes the current step (last), once in the list.
 * Written only while the list is still `steps`, so of concurrent requests the first one's note stands.
 */
export async function enterStep(db: Queryable, token: string, steps: readonly string[], step: string): Promise<void> {
  await db.query('update transactions set steps = array_append(array_remove(steps, $3), $3) where token_hash = $1 and steps = $2::text[]', [
    sha256(token),
    steps,
    step,
  ]);
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

/** What ending a sign-in records with it: the audit event, the browser it came from, and a password just accepted. */
export interface SignInEnding {
  token: string;
  challenge: string;
  userId: string;
  rememberUntil: Date;
  now: Date;
  /** The `sign_in` event's origin and detail (see recordSecurityEvent). */
  event: { ip: string | null; userAgent: string | null; detail: string };
  /**
   * The hash of the browser's long-lived cookie, when it sent one: noted as one of the account's browsers. When it is
   * new to an account that had others, `newBrowserNotice` (a "This wasn't me" link) is stored for the owner's notice.
   */
  browserHash?: string;
  newBrowserNotice?: { token: string; expiresAt: Date };
  /** The address a password was just accepted from: its guessing counts are released with the end (see LoginThrottle.succeeded). */
  releaseAttemptFrom?: string;
}

/** How ending a sign-in went, and whether its browser is new to an account that had others (then its owner is told). */
export type SignInEnd =
  | { outcome: 'missing' | 'disabled' }
  | { outcome: 'finished'; newBrowserOf?: User; interaction: Record<string, unknown> | undefined };

/**
 * `finishTransaction` for user `userId`, unless an operator has disabled the account meanwhile (then nothing ends),
 * with everything a finished sign-in records, in one round trip: the `sign_in` event, the browser noted among the
 * account's (each part sees the tables as they were before the statement, so "others" never counts this browser)
 * with the link of the owner's notice when it is new, and, after a password, the release of its guessing counts.
 * The release does not wait for the end: the password was right whether or not this request claims the transaction.
 * Once claimed, the provider's Interaction the sign-in answers is read in the same statement (`interaction`, its
 * payload while it lives), for the completion that follows.
 */
export async function finishTransactionOfEnabledUser(db: Queryable, sign: SignInEnding): Promise<SignInEnd> {
  const result = await db.query<
    { disabled: boolean | null; finished: boolean; browser_new: boolean; had_others: boolean; interaction: Record<string, unknown> | null } & Partial<UserRow>
  >(
    `with account as (select id, email, first_name, last_name, disabled_at from users where id = $4),
     ended as (
       delete from transactions where token_hash = $1 and challenge = $2 and not exists (select 1 from account where disabled_at is not null)
       returning interaction_uid, client_id
     ),
     finished as (
       insert into finished_sign_ins (interaction_uid, client_id, expires_at) select interaction_uid, client_id, $3 from ended
       on conflict (interaction_uid) do update set expires_at = excluded.expires_at
       returning interaction_uid
     ),
     recorded as (
       insert into security_events (user_id, kind, occurred_at, ip, user_agent, detail)
       select $4, 'sign_in', $5, $6, $7, $8::jsonb where exists (select 1 from finished)
     ),
     browser_added as (
       insert into known_browsers (user_id, browser_hash, first_seen_at, last_seen_at)
       select $4, $9, $5, $5 where $9::text is not null and exists (select 1 from finished)
       on conflict (user_id, browser_hash) do nothing returning 1
     ),
     browser_seen as (
       update known_browsers set last_seen_at = $5
       where user_id = $4 and browser_hash = $9 and exists (select 1 from finished) and not exists (select 1 from browser_added)
     ),
     other_browsers as (select exists (select 1 from known_browsers where user_id = $4 and browser_hash <> $9) as had),
     notice_link as (
       insert into security_notice_links (token_hash, user_id, notice, created_at, expires_at, sent_to)
       select $11, $4, 'new_browser', $5, $12, (select email from account) where $11::text is not null and exists (select 1 from browser_added) and (select had from other_browsers)
     ),
     ${releaseAttemptCtes('$4', '$10')}
     select account.*, account.disabled_at is not null as disabled, exists (select 1 from finished) as finished,
       exists (select 1 from browser_added) as browser_new,
       (select had from other_browsers) as had_others,
       (select p.payload from oidc_payloads p join ended on p.id = ended.interaction_uid
         where p.model = 'Interaction' and (p.expires_at is null or p.expires_at > now())) as interaction
     from (select 1) as one left join account on true`,
    [
      sha256(sign.token),
      sign.challenge,
      sign.rememberUntil,
      sign.userId,
      sign.now,
      sign.event.ip,
      sign.event.userAgent,
      sign.event.detail,
      sign.browserHash ?? null,
      sign.releaseAttemptFrom ?? null,
      sign.newBrowserNotice ? sha256(sign.newBrowserNotice.token) : null,
      sign.newBrowserNotice?.expiresAt ?? null,
    ],
  );
  const row = result.rows[0];
  if (row?.disabled === true) return { outcome: 'disabled' };
  if (row?.finished !== true) return { outcome: 'missing' };
  // A browser new to an account that had none before is its very first: there is nothing to compare it with.
  const newBrowserOf = row.browser_new && row.had_others && row.id ? toUser(row as UserRow) : undefined;
  return { outcome: 'finished', newBrowserOf, interaction: row.interaction ?? undefined };
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
 * `from`, only one moves it; `to.record` is merged into its data in the same statement, and so is the release of a
 * password's attempt from `to.releaseAttemptFrom` (see LoginThrottle.succeeded; it does not wait for the move).
 * Returns false when the transaction was no longer at `from`.
 */
export async function advanceTransaction(
  db: Queryable,
  token: string,
  from: string,
  to: { challenge: string; userId: string; record?: Record<string, unknown>; releaseAttemptFrom?: string },
): Promise<boolean> {
  const params = [sha256(token), from, to.challenge, to.userId, JSON.stringify(to.record ?? {})];
  const move = 'update transactions set challenge = $3, user_id = $4, data = data || $5::jsonb where token_hash = $1 and challenge = $2';
  if (to.releaseAttemptFrom === undefined) return (await db.query(move, params)).rowCount === 1;
  const result = await db.query<{ moved: boolean }>(`with ${releaseAttemptCtes('$4', '$6')}, moved as (${move} returning 1) select exists (select 1 from moved) as moved`, [
    ...params,
    to.releaseAttemptFrom,
  ]);
  return result.rows[0]?.moved === true;
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
