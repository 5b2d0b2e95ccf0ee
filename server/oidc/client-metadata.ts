import type { AdapterPayload } from 'oidc-provider';
import type { ClientRecord } from '../store/clients.ts';
import type { ClientSecurity } from '../store/client-security.ts';
import { RESOURCE_SERVER_METADATA } from './introspection-policy.ts';
import { SERVICE_SCOPES_METADATA } from './resource-indicators.ts';
import { FIRST_PARTY_METADATA } from './consent.ts';

/** The client metadata property carrying our `clients.refresh_tokens` setting into oidc-provider. */
export const REFRESH_TOKENS_METADATA = 'sso_refresh_tokens';

/** The client metadata property naming the client's profile (`default` or `fapi2`). */
export const PROFILE_METADATA = 'sso_profile';

/**
 * What the `fapi2` profile asks of oidc-provider for a client (FAPI 2.0 Security Profile §5.3): pushed requests only,
 * DPoP-bound tokens, ES256 ID tokens. Its `features.fapi` profile adds PKCE and the stricter request checks, and
 * the client's registration (server/admin/client-security-input.ts) private_key_jwt with PS256 or ES256.
 */
const FAPI2_METADATA: AdapterPayload = {
  require_pushed_authorization_requests: true,
  dpop_bound_access_tokens: true,
  id_token_signed_response_alg: 'ES256',
};

/** How the client authenticates, in oidc-provider's metadata. */
function authMetadata(client: ClientRecord): AdapterPayload {
  const { authMethod, jwks, jwksUri, signingAlg } = client.security;
  const alg: AdapterPayload = signingAlg === undefined ? {} : { token_endpoint_auth_signing_alg: signingAlg as AdapterPayload['token_endpoint_auth_signing_alg'] };
  const keys: AdapterPayload = jwksUri === undefined ? { jwks: (jwks ?? { keys: [] }) as AdapterPayload['jwks'] } : { jwks_uri: jwksUri };
  switch (authMethod) {
    case 'none':
      return { token_endpoint_auth_method: 'none' };
    case 'private_key_jwt':
      return { token_endpoint_auth_method: 'private_key_jwt', ...keys, ...alg };
    case 'client_secret_jwt':
    case 'client_secret_basic':
      if (client.secret === undefined) return { token_endpoint_auth_method: 'none' };
      return { token_endpoint_auth_method: authMethod, client_secret: client.secret, ...(authMethod === 'client_secret_jwt' ? alg : {}) };
  }
}

/**
 * The grants and scopes of a service app (client_credentials), if it is one. Its scopes are the resource servers'
 * own, not OpenID scopes, so they travel in a property of ours (see resource-indicators.ts), not in `scope`.
 */
function serviceMetadata(security: ClientSecurity): { grants: string[]; metadata: AdapterPayload } {
  if (security.serviceScopes === undefined) return { grants: [], metadata: {} };
  return { grants: ['client_credentials'], metadata: { [SERVICE_SCOPES_METADATA]: security.serviceScopes } };
}

/** A client app of our `clients` table as oidc-provider reads it. */
export function clientMetadata(client: ClientRecord): AdapterPayload {
  const service = serviceMetadata(client.security);
  return {
    client_id: client.clientId,
    client_name: client.name,
    redirect_uris: client.redirectUris,
    // Every client that signs people in may hold refresh tokens; issueRefreshToken (provider.ts) decides which sign-ins
    // get one. A client without a redirect URI (a service app, a resource server) signs nobody in.
    ...(client.redirectUris.length === 0
      ? { response_types: [], grant_types: service.grants }
      : { response_types: ['code'], grant_types: ['authorization_code', 'refresh_token', ...service.grants] }),
    [REFRESH_TOKENS_METADATA]: client.refreshTokens === true,
    [PROFILE_METADATA]: client.security.profile,
    [FIRST_PARTY_METADATA]: client.security.firstParty,
    ...(client.security.resourceServer === undefined ? {} : { [RESOURCE_SERVER_METADATA]: client.security.resourceServer }),
    ...(client.postLogoutRedirectUris.length > 0 ? { post_logout_redirect_uris: client.postLogoutRedirectUris } : {}),
    // Every logout token carries the session id (sid), so the app can end just that session.
    ...(client.backchannelLogoutUri ? { backchannel_logout_uri: client.backchannelLogoutUri, backchannel_logout_session_required: true } : {}),
    // Unset, the provider's default (RS256) signs the client's ID tokens; the fapi2 profile sets its own.
    ...(client.idTokenSignedResponseAlg ? { id_token_signed_response_alg: client.idTokenSignedResponseAlg as AdapterPayload['id_token_signed_response_alg'] } : {}),
    ...(client.security.profile === 'fapi2' ? FAPI2_METADATA : {}),
    ...service.metadata,
    ...authMetadata(client),
  };
}
