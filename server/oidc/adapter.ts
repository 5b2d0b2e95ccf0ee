import { errors, type Adapter, type AdapterFactory, type AdapterPayload } from 'oidc-provider';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Database } from '../db/database.ts';
import { accountClaimsSelect, toAccountClaims, type AccountClaimsColumns } from '../store/account-claims.ts';
import { findClientRecord, type ClientRecord } from '../store/clients.ts';
import { requestAccounts, requestRows } from './request-rows.ts';
import type { PendingWrite } from './provider-request.ts';
import { requestWrites } from './request-writes.ts';
import { GRANT_MEMBERS, writeRows, type UnconsumedRow } from './payload-writes.ts';
import { clientMetadata } from './client-metadata.ts';

interface PayloadRow {
  payload: AdapterPayload;
  consumed_at: Date | string | null;
}

/** A user's claims row, read ahead with a token. */
interface AccountRow {
  role: 'Account';
  payload: AccountClaimsColumns;
  consumed_at: null;
}

/** A row of a read-ahead lookup: the token itself, its Session or Grant, or its account's claims. */
type ReadAheadRow = (PayloadRow & { role: 'token' | 'Session' | 'Grant' }) | AccountRow;


/**
 * Where a model's payload names the Session (by uid), the Grant (by id) and the account (by user id, with the grant
 * its claims are read for, null for none) the provider reads right after it.
 */
interface ReadAhead {
  sessionUid?: string[];
  grantId: string[];
  account: { userId: string[]; grantId: string[] | null };
}

const TOKEN_READ_AHEAD: ReadAhead = { sessionUid: ['sessionUid'], grantId: ['grantId'], account: { userId: ['accountId'], grantId: ['grantId'] } };

/**
 * Tokens name their session, grant and account (userinfo and the token endpoint check all three); a finished
 * Interaction names the grant its sign-in made and the account that signed in (the provider's resume loads both,
 * the account without a grant).
 */
const READ_AHEAD: Partial<Record<string, ReadAhead>> = {
  AccessToken: TOKEN_READ_AHEAD,
  AuthorizationCode: TOKEN_READ_AHEAD,
  RefreshToken: TOKEN_READ_AHEAD,
  Interaction: { grantId: ['result', 'consent', 'grantId'], account: { userId: ['result', 'login', 'accountId'], grantId: null } },
};

/** users.id is a uuid: any other account id read from a payload names no user (and must not reach a uuid cast). */
const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

/** Models a parallel second use of which must fail and revoke the grant. */
const SINGLE_USE = ['AuthorizationCode', 'RefreshToken'];

// Rows past expires_at are invisible; the database's clock decides, so every server process agrees.
const NOT_EXPIRED = '(expires_at is null or expires_at > now())';

/** The string at `path` in `payload`, as PostgreSQL's `#>>` reads it. */
function valueAt(payload: AdapterPayload, path: readonly string[]): string | undefined {
  let value: unknown = payload;
  for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' ? value : undefined;
}

function withConsumed(row: PayloadRow | undefined): AdapterPayload | undefined {
  if (!row) return undefined;
  if (row.consumed_at === null) return row.payload;
  return { ...row.payload, consumed: Math.floor(new Date(row.consumed_at).getTime() / 1000) };
}

/** Where the provider reads a client app: the process's cache of the `clients` table, or the table itself. */
export type ClientSource = (clientId: string) => Promise<ClientRecord | undefined>;

/** Reads client metadata from our `clients` table; registration through the provider is switched off. */
function clientAdapter(readClient: ClientSource): Adapter {
  const readOnly = async (): Promise<never> => {
    throw new Error('clients are managed with the sso CLI, not through oidc-provider');
  };
  return {
    async find(id) {
      const client = await readClient(id);
      return client && clientMetadata(client);
    },
    upsert: readOnly,
    destroy: readOnly,
    consume: readOnly,
    revokeByGrantId: readOnly,
    findByUid: async () => undefined,
    findByUserCode: async () => undefined,
  };
}

/** The grant first, then its members: a token written meanwhile either found no grant or is deleted with the rest. */
async function revokeGrant(db: Database, grantId: string): Promise<void> {
  requestRows.forget('Grant');
  await db.query("delete from oidc_payloads where model = 'Grant' and id = $1", [grantId]);
  await db.query('delete from oidc_payloads where grant_id = $1 and model = any($2)', [grantId, GRANT_MEMBERS]);
}

/**
 * oidc-provider checked `consumed` just before; a code or refresh token found used (or gone) when it is consumed was
 * redeemed first by a parallel request (perhaps on another instance). Treat it as the replay it is: revoke the whole
 * grant (the token family, RFC 9700 §4.14) and refuse, exactly as for a sequential reuse.
 */
async function refuseReuse(db: Database, { model, id }: UnconsumedRow): Promise<never> {
  const row = await db.query<{ grant_id: string | null }>('select grant_id from oidc_payloads where model = $1 and id = $2', [model, id]);
  const grantId = row.rows[0]?.grant_id;
  if (grantId) await revokeGrant(db, grantId);
  throw new errors.InvalidGrant(model === 'RefreshToken' ? 'refresh token already used' : 'authorization code already consumed');
}

/** Writes a provider request's rows (writeRows); a code or refresh token a parallel request spent first is refused. */
export async function writeProviderRows(db: Database, rows: PendingWrite[]): Promise<void> {
  const [unconsumed] = await writeRows(db, rows);
  if (unconsumed) await refuseReuse(db, unconsumed);
}

/** Stores one oidc-provider model (Session, Interaction, AuthorizationCode, ...) in `oidc_payloads`. */
function payloadAdapter(db: Database, model: string): Adapter {
  const findBy = async (column: 'id' | 'uid' | 'user_code', value: string) => {
    if (column !== 'user_code') {
      const readAhead = requestRows.take(model, column, value);
      if (readAhead !== undefined) return readAhead ?? undefined;
    }
    await sendDeferredWrites(db);
    const ahead = READ_AHEAD[model];
    if (ahead && column === 'id' && requestRows.active()) return findWithSessionAndGrant(value, ahead);
    const result = await db.query<PayloadRow>(
      `select payload, consumed_at from oidc_payloads where model = $1 and ${column} = $2 and ${NOT_EXPIRED} limit 1`,
      [model, value],
    );
    return withConsumed(result.rows[0]);
  };

  /**
   * The row `id`, with the Session, Grant and account claims it names read ahead in the same round trip for the
   * lookups that follow.
   */
  async function findWithSessionAndGrant(id: string, paths: ReadAhead): Promise<AdapterPayload | undefined> {
    const accountUserId = `(case when token.payload #>> $5::text[] ~* $7 then (token.payload #>> $5::text[])::uuid end)`;
    const result = await db.query<ReadAheadRow>(
      `with token as (
         select payload, consumed_at from oidc_payloads where model = $1 and id = $2 and ${NOT_EXPIRED} limit 1
       )
       select 'token' as role, payload, consumed_at from token
       union all
       select 'Session', p.payload, p.consumed_at from oidc_payloads p join token on p.uid = token.payload #>> $3::text[]
         where p.model = 'Session' and (p.expires_at is null or p.expires_at > now())
       union all
       select 'Grant', p.payload, p.consumed_at from oidc_payloads p join token on p.id = token.payload #>> $4::text[]
         where p.model = 'Grant' and (p.expires_at is null or p.expires_at > now())
       union all
       select 'Account', to_jsonb(a), null::timestamptz from token
         cross join lateral (${accountClaimsSelect(accountUserId, 'token.payload #>> $6::text[]')}) a`,
      [model, id, paths.sessionUid ?? null, paths.grantId, paths.account.userId, paths.account.grantId, UUID_PATTERN],
    );
    const payloads = result.rows.filter((row): row is ReadAheadRow & PayloadRow => row.role !== 'Account');
    const token = withConsumed(payloads.find((row) => row.role === 'token'));
    if (!token) return undefined;
    const aheadOf = (role: 'Session' | 'Grant') => withConsumed(payloads.find((row) => row.role === role)) ?? null;
    const sessionUid = paths.sessionUid && valueAt(token, paths.sessionUid);
    const grantId = valueAt(token, paths.grantId);
    if (sessionUid !== undefined) requestRows.keep('Session', 'uid', sessionUid, aheadOf('Session'));
    if (grantId !== undefined) requestRows.keep('Grant', 'id', grantId, aheadOf('Grant'));
    const accountId = valueAt(token, paths.account.userId);
    if (accountId !== undefined) {
      const claims = result.rows.find((row): row is AccountRow => row.role === 'Account');
      requestAccounts.keep(accountId, paths.account.grantId ? valueAt(token, paths.account.grantId) : undefined, claims ? toAccountClaims(claims.payload) : null);
    }
    return token;
  }

  /** Inside a provider request the write waits to go out with the request's others; elsewhere it goes now. */
  async function write(row: PendingWrite): Promise<void> {
    if (requestWrites.active()) requestWrites.defer(row);
    else await writeRows(db, [row]);
  }

  return {
    async upsert(id, payload, expiresIn) {
      requestRows.forget(model);
      await write({ kind: 'upsert', model, id, payload, expiresIn });
    },
    find: (id) => findBy('id', id),
    findByUid: (uid) => findBy('uid', uid),
    findByUserCode: (userCode) => findBy('user_code', userCode),
    async consume(id) {
      requestRows.forget(model);
      // Inside a provider request (the token endpoint), a code or refresh token is spent by the statement that stores
      // the tokens issued for it, a round trip less: nothing is stored, and the answer is refused, if it was spent first.
      if (SINGLE_USE.includes(model) && requestWrites.active()) {
        requestWrites.defer({ kind: 'consume', model, id });
        return;
      }
      await sendDeferredWrites(db);
      const result = await db.query(`update oidc_payloads set consumed_at = now() where model = $1 and id = $2 and consumed_at is null returning grant_id`, [model, id]);
      if (result.rows.length === 0 && SINGLE_USE.includes(model)) await refuseReuse(db, { model, id });
    },
    async destroy(id) {
      requestRows.forget(model);
      await write({ kind: 'destroy', model, id });
    },
    async revokeByGrantId(grantId) {
      requestRows.forget(model);
      await sendDeferredWrites(db);
      await db.query('delete from oidc_payloads where model = $1 and grant_id = $2', [model, grantId]);
    },
  };
}

/** Sends the provider's writes held back in the request in progress (see requestWrites), if any. */
export function sendDeferredWrites(db: Database): Promise<void> {
  return requestWrites.send((rows) => writeProviderRows(db, rows));
}

/** An oidc-provider adapter factory over our database: all provider state lives in PostgreSQL, none in the process. */
export function createOidcAdapter(deps: { db: Database; box: SecretBox; clients?: ClientSource }): AdapterFactory {
  const readClient = deps.clients ?? ((clientId: string) => findClientRecord(deps.db, deps.box, clientId));
  return (model: string) => (model === 'Client' ? clientAdapter(readClient) : payloadAdapter(deps.db, model));
}
