import type { Queryable } from '../db/database.ts';
import { CLIENT_SECURITY_COLUMNS, clientSecurityOf, type ClientAuthMethod, type ClientProfile, type ClientSecurityRow } from './client-security.ts';

/** What an operator sees of a client app (`sso client list` and `sso client show`): never its secret or keys. */
export interface ClientReport {
  clientId: string;
  name: string;
  type: 'public' | 'confidential';
  authMethod: ClientAuthMethod;
  profile: ClientProfile;
  redirectUris: string[];
  initiateLoginUri?: string;
  postLogoutRedirectUris: string[];
  backchannelLogoutUri?: string;
  refreshTokens: boolean;
  /** How many public keys are registered inline, or where they are published. */
  jwks?: string;
  signingAlg?: string;
  serviceScopes?: string[];
  resourceServer?: string;
  firstParty: boolean;
}

interface ListingRow extends ClientSecurityRow {
  client_id: string;
  name: string;
  redirect_uris: string[];
  is_public: boolean;
  initiate_login_uri: string | null;
  post_logout_redirect_uris: string[];
  backchannel_logout_uri: string | null;
  refresh_tokens: boolean;
}

function reportOf(row: ListingRow): ClientReport {
  const security = clientSecurityOf(row, { isPublic: row.is_public });
  const count = security.jwks?.keys.length;
  const jwks = security.jwksUri ?? (count === undefined ? undefined : `${count} key${count === 1 ? '' : 's'} registered inline`);
  return {
    clientId: row.client_id,
    name: row.name,
    type: row.is_public ? 'public' : 'confidential',
    authMethod: security.authMethod,
    profile: security.profile,
    redirectUris: row.redirect_uris,
    ...(row.initiate_login_uri === null ? {} : { initiateLoginUri: row.initiate_login_uri }),
    postLogoutRedirectUris: row.post_logout_redirect_uris,
    ...(row.backchannel_logout_uri === null ? {} : { backchannelLogoutUri: row.backchannel_logout_uri }),
    refreshTokens: row.refresh_tokens,
    ...(jwks === undefined ? {} : { jwks }),
    ...(security.signingAlg === undefined ? {} : { signingAlg: security.signingAlg }),
    ...(security.serviceScopes === undefined ? {} : { serviceScopes: security.serviceScopes }),
    ...(security.resourceServer === undefined ? {} : { resourceServer: security.resourceServer }),
    firstParty: security.firstParty,
  };
}

/** Every client app, by id; or the one with `clientId` (none when it is not registered). */
export async function listClientReports(db: Queryable, clientId?: string): Promise<ClientReport[]> {
  const result = await db.query<ListingRow>(
    `select client_id, name, redirect_uris, is_public, initiate_login_uri, post_logout_redirect_uris, backchannel_logout_uri, refresh_tokens,
       ${CLIENT_SECURITY_COLUMNS}
     from clients where $1::text is null or client_id = $1 order by client_id`,
    [clientId ?? null],
  );
  return result.rows.map(reportOf);
}
