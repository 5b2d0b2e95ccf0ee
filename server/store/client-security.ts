import type { JWK } from 'jose';
import type { Queryable } from '../db/database.ts';

/** How a client authenticates at the token endpoint (RFC 7591 `token_endpoint_auth_method`). */
export type ClientAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_jwt' | 'private_key_jwt';

/** The rules a client's requests follow: `default` as every app, or `fapi2` (the FAPI 2.0 Security Profile). */
export type ClientProfile = 'default' | 'fapi2';

export const CLIENT_AUTH_METHODS: readonly ClientAuthMethod[] = ['none', 'client_secret_basic', 'client_secret_jwt', 'private_key_jwt'];
export const CLIENT_PROFILES: readonly ClientProfile[] = ['default', 'fapi2'];

/** A client's authentication, keys, profile and service settings. */
export interface ClientSecurity {
  authMethod: ClientAuthMethod;
  /** The client's public keys (private_key_jwt), inline. */
  jwks: { keys: JWK[] } | undefined;
  /** Where the client publishes its public keys (private_key_jwt). */
  jwksUri: string | undefined;
  /** The one algorithm the client's assertions must be signed with, when pinned. */
  signingAlg: string | undefined;
  profile: ClientProfile;
  /** The scopes a service app may ask for with client_credentials; undefined when it may not use that grant. */
  serviceScopes: string[] | undefined;
  /** The RFC 8707 resource indicator of the resource server this client answers for. */
  resourceServer: string | undefined;
  /** One of our own apps: people sign in to it without being asked to allow what it asks for. */
  firstParty: boolean;
}

/** The columns `clientSecurityOf` reads, for a select list. */
export const CLIENT_SECURITY_COLUMNS = 'token_endpoint_auth_method, jwks, jwks_uri, token_endpoint_auth_signing_alg, profile, service_scopes, resource_server, first_party';

/** The row shape of CLIENT_SECURITY_COLUMNS. */
export interface ClientSecurityRow {
  token_endpoint_auth_method: ClientAuthMethod | null;
  jwks: { keys: JWK[] } | null;
  jwks_uri: string | null;
  token_endpoint_auth_signing_alg: string | null;
  profile: ClientProfile;
  service_scopes: string[] | null;
  resource_server: string | null;
  first_party: boolean;
}

/** The security settings of a row; a client registered before they existed authenticates as it always did. */
export function clientSecurityOf(row: ClientSecurityRow, client: { isPublic: boolean }): ClientSecurity {
  return {
    authMethod: row.token_endpoint_auth_method ?? (client.isPublic ? 'none' : 'client_secret_basic'),
    jwks: row.jwks ?? undefined,
    jwksUri: row.jwks_uri ?? undefined,
    signingAlg: row.token_endpoint_auth_signing_alg ?? undefined,
    profile: row.profile,
    serviceScopes: row.service_scopes ?? undefined,
    resourceServer: row.resource_server ?? undefined,
    firstParty: row.first_party,
  };
}

/** Stores a client's security settings; false when no such client is registered. */
export async function setClientSecurity(db: Queryable, clientId: string, security: ClientSecurity): Promise<boolean> {
  const result = await db.query(
    `update clients set token_endpoint_auth_method = $2, jwks = $3::jsonb, jwks_uri = $4, token_endpoint_auth_signing_alg = $5, profile = $6,
       service_scopes = $7, resource_server = $8, first_party = $9 where client_id = $1`,
    [
      clientId,
      security.authMethod,
      security.jwks === undefined ? null : JSON.stringify(security.jwks),
      security.jwksUri ?? null,
      security.signingAlg ?? null,
      security.profile,
      security.serviceScopes ?? null,
      security.resourceServer ?? null,
      security.firstParty,
    ],
  );
  return result.rowCount > 0;
}

/** The client's security settings, if it is registered. */
export async function findClientSecurity(db: Queryable, clientId: string): Promise<ClientSecurity | undefined> {
  const result = await db.query<ClientSecurityRow & { is_public: boolean }>(`select is_public, ${CLIENT_SECURITY_COLUMNS} from clients where client_id = $1`, [clientId]);
  const row = result.rows[0];
  return row && clientSecurityOf(row, { isPublic: row.is_public });
}

/** The client answering for the resource indicator `resourceServer`, other than `clientId`, if any. */
export async function otherResourceServerOwner(db: Queryable, resourceServer: string, clientId: string): Promise<string | undefined> {
  const result = await db.query<{ client_id: string }>('select client_id from clients where resource_server = $1 and client_id <> $2', [resourceServer, clientId]);
  return result.rows[0]?.client_id;
}

/** Marks a client as one of our own apps (no consent screen), or not. */
export async function setClientFirstParty(db: Queryable, clientId: string, firstParty: boolean): Promise<void> {
  await db.query('update clients set first_party = $2 where client_id = $1', [clientId, firstParty]);
}
