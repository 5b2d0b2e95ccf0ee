import type { Queryable } from '../db/database.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import { CLIENT_SECURITY_COLUMNS, clientSecurityOf, type ClientSecurity, type ClientSecurityRow } from './client-security.ts';

/** A client app registered with the provider. */
export interface Client {
  clientId: string;
  name: string;
  /** Matched exactly, character for character, against an authorization request's redirect_uri. */
  redirectUris: string[];
  /** A public client (a browser or mobile app) has no secret and must use PKCE. */
  isPublic: boolean;
  /** The plaintext secret of a confidential client, decrypted from rest only when needed. */
  secret: string | undefined;
  /** Every sign-in for this client gets a refresh token, even without `offline_access`. */
  refreshTokens?: boolean;
}

interface ClientRow {
  client_id: string;
  name: string;
  redirect_uris: string[];
  is_public: boolean;
  secret_encrypted: string | null;
  refresh_tokens: boolean;
}

const secretContext = (clientId: string) => `client-secret:${clientId}`;

/** What the sign-in screens may know of a client: never its secret. */
export type ClientInfo = Omit<Client, 'secret'>;

/** The client with `clientId` without its secret (which stays sealed), for checks and display. */
export async function findClientInfo(db: Queryable, clientId: string): Promise<ClientInfo | undefined> {
  const result = await db.query<Omit<ClientRow, 'secret_encrypted' | 'refresh_tokens'>>(
    'select client_id, name, redirect_uris, is_public from clients where client_id = $1',
    [clientId],
  );
  const row = result.rows[0];
  return row && { clientId: row.client_id, name: row.name, redirectUris: row.redirect_uris, isPublic: row.is_public };
}

/** The client with `clientId`, with its secret opened, if registered: for client authentication only. */
export async function findClient(db: Queryable, box: SecretBox, clientId: string): Promise<Client | undefined> {
  const result = await db.query<ClientRow>(
    'select client_id, name, redirect_uris, is_public, secret_encrypted, refresh_tokens from clients where client_id = $1',
    [clientId],
  );
  const row = result.rows[0];
  return row && clientOf(row, box);
}

function clientOf(row: ClientRow, box: SecretBox): Client {
  return {
    clientId: row.client_id,
    name: row.name,
    redirectUris: row.redirect_uris,
    isPublic: row.is_public,
    secret: row.secret_encrypted === null ? undefined : box.open(row.secret_encrypted, secretContext(row.client_id)),
    refreshTokens: row.refresh_tokens,
  };
}

/** Registers or replaces a client; the secret (confidential clients only) is sealed before it is stored. */
export async function upsertClient(db: Queryable, box: SecretBox, client: Client): Promise<void> {
  const sealed = client.isPublic || client.secret === undefined ? null : box.seal(client.secret, secretContext(client.clientId));
  await db.query(
    `insert into clients (client_id, name, redirect_uris, is_public, secret_encrypted) values ($1, $2, $3, $4, $5)
     on conflict (client_id) do update set name = excluded.name, redirect_uris = excluded.redirect_uris,
       is_public = excluded.is_public, secret_encrypted = excluded.secret_encrypted`,
    [client.clientId, client.name, client.redirectUris, client.isPublic, sealed],
  );
}

/** Turns the client's refresh-token setting on or off; false when no such client is registered. */
export async function setClientRefreshTokens(db: Queryable, clientId: string, on: boolean): Promise<boolean> {
  const result = await db.query('update clients set refresh_tokens = $2 where client_id = $1', [clientId, on]);
  return result.rowCount > 0;
}

/** Where a client app goes after signing out, and where it is told a session ended. */
export interface ClientLogout {
  /** OpenID Connect RP-Initiated Logout: matched exactly against a logout request's post_logout_redirect_uri. */
  postLogoutRedirectUris: string[];
  /** OpenID Connect Back-Channel Logout: receives a signed logout token when a session of the app ends. */
  backchannelLogoutUri: string | undefined;
}

/** The client's logout settings (none registered: no redirect after logout, no back-channel notice). */
export async function findClientLogout(db: Queryable, clientId: string): Promise<ClientLogout> {
  const result = await db.query<{ post_logout_redirect_uris: string[]; backchannel_logout_uri: string | null }>(
    'select post_logout_redirect_uris, backchannel_logout_uri from clients where client_id = $1',
    [clientId],
  );
  const row = result.rows[0];
  return { postLogoutRedirectUris: row?.post_logout_redirect_uris ?? [], backchannelLogoutUri: row?.backchannel_logout_uri ?? undefined };
}

/** Everything the provider knows of a client: its registration, its logout and security settings, in one round trip. */
export type ClientRecord = Client & ClientLogout & { security: ClientSecurity; idTokenSignedResponseAlg: string | undefined };

/** The client with `clientId` and its logout settings (secret opened), if registered. */
export async function findClientRecord(db: Queryable, box: SecretBox, clientId: string): Promise<ClientRecord | undefined> {
  const result = await db.query<ClientRow & ClientSecurityRow & { post_logout_redirect_uris: string[]; backchannel_logout_uri: string | null; id_token_signed_response_alg: string | null }>(
    `select client_id, name, redirect_uris, is_public, secret_encrypted, refresh_tokens, post_logout_redirect_uris, backchannel_logout_uri,
       id_token_signed_response_alg, ${CLIENT_SECURITY_COLUMNS}
     from clients where client_id = $1`,
    [clientId],
  );
  const row = result.rows[0];
  if (!row) return undefined;
  return {
    ...clientOf(row, box),
    postLogoutRedirectUris: row.post_logout_redirect_uris,
    backchannelLogoutUri: row.backchannel_logout_uri ?? undefined,
    security: clientSecurityOf(row, { isPublic: row.is_public }),
    idTokenSignedResponseAlg: row.id_token_signed_response_alg ?? undefined,
  };
}

/** Sets the algorithm the client's ID tokens are signed with; undefined returns it to the default (RS256). */
export async function setClientIdTokenAlg(db: Queryable, clientId: string, alg: string | undefined): Promise<void> {
  await db.query('update clients set id_token_signed_response_alg = $2 where client_id = $1', [clientId, alg ?? null]);
}

/** Registers the client's logout settings. */
export async function setClientLogout(db: Queryable, clientId: string, logout: ClientLogout): Promise<void> {
  await db.query('update clients set post_logout_redirect_uris = $2, backchannel_logout_uri = $3 where client_id = $1', [
    clientId,
    logout.postLogoutRedirectUris,
    logout.backchannelLogoutUri ?? null,
  ]);
}
