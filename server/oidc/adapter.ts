import { errors, type Adapter, type AdapterFactory, type AdapterPayload } from 'oidc-provider';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Database, SqlValue } from '../db/database.ts';
import { findClientRecord, type ClientRecord } from '../store/clients.ts';
import { requestRows } from './request-rows.ts';
import type { PendingWrite } from './provider-request.ts';
import { requestWrites } from './request-writes.ts';

interface PayloadRow {
  payload: AdapterPayload;
  consumed_at: Date | string | null;
}

/** The client metadata property carrying our `clients.refresh_tokens` setting into oidc-provider. */
export const REFRESH_TOKENS_METADATA = 'sso_refresh_tokens';

/** Models whose rows belong to a grant and die with it when the grant is revoked (mirrors oidc-provider's memory adapter). */
const GRANT_MEMBERS = ['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest'];

/** Where a model's payload names the Session (by uid) and the Grant (by id) the provider reads right after it. */
interface ReadAhead {
  sessionUid?: string[];
  grantId: string[];
}

const TOKEN_READ_AHEAD: ReadAhead = { sessionUid: ['sessionUid'], grantId: ['grantId'] };

/**
 * Tokens name their session and grant (userinfo and the token endpoint check both); a finished Interaction names
 * the grant its sign-in made (the provider's resume loads it).
 */
const READ_AHEAD: Partial<Record<string, ReadAhead>> = {
  AccessToken: TOKEN_READ_AHEAD,
  AuthorizationCode: TOKEN_READ_AHEAD,
  RefreshToken: TOKEN_READ_AHEAD,
  Interaction: { grantId: ['result', 'consent', 'grantId'] },
};

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
      if (!client) return undefined;
      const auth: AdapterPayload =
        client.isPublic || client.secret === undefined
          ? { token_endpoint_auth_method: 'none' }
          : { token_endpoint_auth_method: 'client_secret_basic', client_secret: client.secret };
      return {
        client_id: client.clientId,
        client_name: client.name,
        redirect_uris: client.redirectUris,
        response_types: ['code'],
        // Every client may hold refresh tokens; issueRefreshToken (provider.ts) decides which sign-ins get one.
        grant_types: ['authorization_code', 'refresh_token'],
        [REFRESH_TOKENS_METADATA]: client.refreshTokens === true,
        ...(client.postLogoutRedirectUris.length > 0 ? { post_logout_redirect_uris: client.postLogoutRedirectUris } : {}),
        // Every logout token carries the session id (sid), so the app can end just that session.
        ...(client.backchannelLogoutUri ? { backchannel_logout_uri: client.backchannelLogoutUri, backchannel_logout_session_required: true } : {}),
        ...auth,
      };
    },
    upsert: readOnly,
    destroy: readOnly,
    consume: readOnly,
    revokeByGrantId: readOnly,
    findByUid: async () => undefined,
    findByUserCode: async () => undefined,
  };
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

  /** The row `id`, with the Session and Grant it names read ahead in the same round trip for the lookups that follow. */
  async function findWithSessionAndGrant(id: string, paths: ReadAhead): Promise<AdapterPayload | undefined> {
    const result = await db.query<PayloadRow & { role: 'token' | 'Session' | 'Grant' }>(
      `with token as (
         select payload, consumed_at from oidc_payloads where model = $1 and id = $2 and ${NOT_EXPIRED} limit 1
       )
       select 'token' as role, payload, consumed_at from token
       union all
       select 'Session', p.payload, p.consumed_at from oidc_payloads p join token on p.uid = token.payload #>> $3::text[]
         where p.model = 'Session' and (p.expires_at is null or p.expires_at > now())
       union all
       select 'Grant', p.payload, p.consumed_at from oidc_payloads p join token on p.id = token.payload #>> $4::text[]
         where p.model = 'Grant' and (p.expires_at is null or p.expires_at > now())`,
      [model, id, paths.sessionUid ?? null, paths.grantId],
    );
    const token = withConsumed(result.rows.find((row) => row.role === 'token'));
    if (!token) return undefined;
    const aheadOf = (role: 'Session' | 'Grant') => withConsumed(result.rows.find((row) => row.role === role)) ?? null;
    const sessionUid = paths.sessionUid && valueAt(token, paths.sessionUid);
    const grantId = valueAt(token, paths.grantId);
    if (sessionUid !== undefined) requestRows.keep('Session', 'uid', sessionUid, aheadOf('Session'));
    if (grantId !== undefined) requestRows.keep('Grant', 'id', grantId, aheadOf('Grant'));
    return token;
  }

  async function revokeGrant(grantId: string): Promise<void> {
    requestRows.forget('Grant');
    await db.query('delete from oidc_payloads where grant_id = $1 and model = any($2)', [grantId, GRANT_MEMBERS]);
    await db.query("delete from oidc_payloads where model = 'Grant' and id = $1", [grantId]);
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
      await sendDeferredWrites(db);
      const result = await db.query<{ grant_id: string | null }>(
        `update oidc_payloads set consumed_at = now() where model = $1 and id = $2 and consumed_at is null returning grant_id`,
        [model, id],
      );
      if (result.rows.length > 0 || !SINGLE_USE.includes(model)) return;
      // oidc-provider checked `consumed` just before; no row updated means a parallel request (perhaps on another
      // instance) redeemed the same code or refresh token first. Treat it as the replay it is: revoke the whole grant
      // (the token family, RFC 9700 §4.14) and refuse, exactly as for a sequential reuse.
      const row = await db.query<{ grant_id: string | null }>('select grant_id from oidc_payloads where model = $1 and id = $2', [model, id]);
      const grantId = row.rows[0]?.grant_id;
      if (grantId) await revokeGrant(grantId);
      throw new errors.InvalidGrant(model === 'RefreshToken' ? 'refresh token already used' : 'authorization code already consumed');
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

const UPSERT_COLUMNS = '(model, id, payload, grant_id, uid, user_code, expires_at)';
const ON_CONFLICT = `on conflict (model, id) do update set payload = excluded.payload, grant_id = excluded.grant_id,
  uid = excluded.uid, user_code = excluded.user_code, expires_at = excluded.expires_at`;

/**
 * Writes `rows` (distinct rows: a request's later write of a row replaced its earlier one) in one statement: the
 * deletions and the upserts together, so a request's writes cost one round trip and land all or none.
 */
async function writeRows(db: Database, rows: readonly PendingWrite[]): Promise<void> {
  const params: SqlValue[] = [];
  const bind = (value: SqlValue) => `$${params.push(value)}`;
  const deleted: string[] = [];
  const upserted: string[] = [];
  for (const row of rows) {
    if (row.kind === 'destroy') {
      deleted.push(`(${bind(row.model)}, ${bind(row.id)})`);
      continue;
    }
    const { payload } = row;
    upserted.push(
      `(${bind(row.model)}, ${bind(row.id)}, ${bind(JSON.stringify(payload))}::jsonb, ${bind(payload.grantId ?? null)}, ${bind(payload.uid ?? null)}, ` +
        `${bind(payload.userCode ?? null)}, now() + ${bind(row.expiresIn ?? null)}::double precision * interval '1 second')`,
    );
  }
  const deletion = `delete from oidc_payloads where (model, id) in (${deleted.join(', ')})`;
  const upsert = `insert into oidc_payloads ${UPSERT_COLUMNS} values ${upserted.join(', ')} ${ON_CONFLICT}`;
  if (upserted.length === 0) await db.query(deletion, params);
  else if (deleted.length === 0) await db.query(upsert, params);
  else await db.query(`with deleted as (${deletion}) ${upsert}`, params);
}

/** Sends the provider's writes held back in the request in progress (see requestWrites), if any. */
export function sendDeferredWrites(db: Database): Promise<void> {
  return requestWrites.send((rows) => writeRows(db, rows));
}

/** An oidc-provider adapter factory over our database: all provider state lives in PostgreSQL, none in the process. */
export function createOidcAdapter(deps: { db: Database; box: SecretBox; clients?: ClientSource }): AdapterFactory {
  const readClient = deps.clients ?? ((clientId: string) => findClientRecord(deps.db, deps.box, clientId));
  return (model: string) => (model === 'Client' ? clientAdapter(readClient) : payloadAdapter(deps.db, model));
}
