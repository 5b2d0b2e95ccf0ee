import { errors, type Adapter, type AdapterFactory, type AdapterPayload } from 'oidc-provider';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Database } from '../db/database.ts';
import { findClient, findClientLogout } from '../store/clients.ts';

interface PayloadRow {
  payload: AdapterPayload;
  consumed_at: Date | string | null;
}

/** Models whose rows belong to a grant and die with it when the grant is revoked (mirrors oidc-provider's memory adapter). */
const GRANT_MEMBERS = ['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest'];

// Rows past expires_at are invisible; the database's clock decides, so every server process agrees.
const NOT_EXPIRED = '(expires_at is null or expires_at > now())';

function withConsumed(row: PayloadRow | undefined): AdapterPayload | undefined {
  if (!row) return undefined;
  if (row.consumed_at === null) return row.payload;
  return { ...row.payload, consumed: Math.floor(new Date(row.consumed_at).getTime() / 1000) };
}

/** Reads client metadata from our `clients` table; registration through the provider is switched off. */
function clientAdapter(db: Database, box: SecretBox): Adapter {
  const readOnly = async (): Promise<never> => {
    throw new Error('clients are managed with the sso CLI, not through oidc-provider');
  };
  return {
    async find(id) {
      const client = await findClient(db, box, id);
      if (!client) return undefined;
      const logout = await findClientLogout(db, id);
      const auth: AdapterPayload =
        client.isPublic || client.secret === undefined
          ? { token_endpoint_auth_method: 'none' }
          : { token_endpoint_auth_method: 'client_secret_basic', client_secret: client.secret };
      return {
        client_id: client.clientId,
        client_name: client.name,
        redirect_uris: client.redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        ...(logout.postLogoutRedirectUris.length > 0 ? { post_logout_redirect_uris: logout.postLogoutRedirectUris } : {}),
        // Every logout token carries the session id (sid), so the app can end just that session.
        ...(logout.backchannelLogoutUri ? { backchannel_logout_uri: logout.backchannelLogoutUri, backchannel_logout_session_required: true } : {}),
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
    const result = await db.query<PayloadRow>(
      `select payload, consumed_at from oidc_payloads where model = $1 and ${column} = $2 and ${NOT_EXPIRED} limit 1`,
      [model, value],
    );
    return withConsumed(result.rows[0]);
  };

  async function revokeGrant(grantId: string): Promise<void> {
    await db.query('delete from oidc_payloads where grant_id = $1 and model = any($2)', [grantId, GRANT_MEMBERS]);
    await db.query("delete from oidc_payloads where model = 'Grant' and id = $1", [grantId]);
  }

  return {
    async upsert(id, payload, expiresIn) {
      await db.query(
        `insert into oidc_payloads (model, id, payload, grant_id, uid, user_code, expires_at)
         values ($1, $2, $3::jsonb, $4, $5, $6, now() + $7::double precision * interval '1 second')
         on conflict (model, id) do update set payload = excluded.payload, grant_id = excluded.grant_id,
           uid = excluded.uid, user_code = excluded.user_code, expires_at = excluded.expires_at`,
        [model, id, JSON.stringify(payload), payload.grantId ?? null, payload.uid ?? null, payload.userCode ?? null, expiresIn ?? null],
      );
    },
    find: (id) => findBy('id', id),
    findByUid: (uid) => findBy('uid', uid),
    findByUserCode: (userCode) => findBy('user_code', userCode),
    async consume(id) {
      const result = await db.query<{ grant_id: string | null }>(
        `update oidc_payloads set consumed_at = now() where model = $1 and id = $2 and consumed_at is null returning grant_id`,
        [model, id],
      );
      if (result.rows.length > 0 || model !== 'AuthorizationCode') return;
      // oidc-provider checked `consumed` just before; no row updated means a parallel request redeemed the same
      // code first. Treat it as the replay it is: revoke the grant and refuse, exactly as for a sequential reuse.
      const row = await db.query<{ grant_id: string | null }>('select grant_id from oidc_payloads where model = $1 and id = $2', [model, id]);
      const grantId = row.rows[0]?.grant_id;
      if (grantId) await revokeGrant(grantId);
      throw new errors.InvalidGrant('authorization code already consumed');
    },
    async destroy(id) {
      await db.query('delete from oidc_payloads where model = $1 and id = $2', [model, id]);
    },
    async revokeByGrantId(grantId) {
      await db.query('delete from oidc_payloads where model = $1 and grant_id = $2', [model, grantId]);
    },
  };
}

/** An oidc-provider adapter factory over our database: all provider state lives in PostgreSQL, none in the process. */
export function createOidcAdapter(deps: { db: Database; box: SecretBox }): AdapterFactory {
  return (model: string) => (model === 'Client' ? clientAdapter(deps.db, deps.box) : payloadAdapter(deps.db, model));
}
