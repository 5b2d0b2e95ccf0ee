import Provider, { errors, type Client, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Queryable } from '../db/database.ts';
import { LIMITS } from '../limits.ts';

/** The client metadata property listing the scopes a service app may ask for with client_credentials. */
export const SERVICE_SCOPES_METADATA = 'sso_service_scopes';

/** The scopes `client` may be given with client_credentials (none when it is no service app). */
export function serviceScopesOf(client: Client): string[] {
  const scopes = client.metadata()[SERVICE_SCOPES_METADATA];
  return Array.isArray(scopes) ? scopes.filter((scope): scope is string => typeof scope === 'string') : [];
}

/** True when a client app registered `--resource-server indicator` (a resource server that introspects its tokens). */
async function resourceServerRegistered(db: Queryable, indicator: string): Promise<boolean> {
  const result = await db.query('select 1 from clients where resource_server = $1 limit 1', [indicator]);
  return result.rows.length > 0;
}

/** The scopes a client_credentials request names, as sent. */
function requestedScopes(ctx: KoaContextWithOIDC): string[] {
  const scope = ctx.oidc.params?.scope;
  return typeof scope === 'string' ? scope.split(' ').filter(Boolean) : [];
}

/**
 * RFC 8707 resource indicators, for service apps only: a client_credentials request names exactly one registered
 * resource server, and gets an access token for it (its `aud`) carrying only scopes the client was registered for,
 * living LIMITS.SERVICE_TOKEN_TTL. A person's sign-in keeps its tokens for the userinfo endpoint, so `resource`
 * anywhere else is refused with `invalid_target`, as is an unknown resource; a scope beyond the client's is
 * `invalid_scope`, never silently dropped.
 */
export function resourceIndicators(db: Queryable): NonNullable<Configuration['features']>['resourceIndicators'] {
  const clientCredentials = (ctx: KoaContextWithOIDC) => ctx.oidc.params?.grant_type === 'client_credentials';
  return {
    enabled: true,
    async defaultResource(ctx, _client, oneOf) {
      if (oneOf) return oneOf;
      if (clientCredentials(ctx)) throw new errors.InvalidTarget('name the resource server the token is for (resource)');
      return undefined;
    },
    useGrantedResource: async () => false,
    async getResourceServerInfo(ctx, indicator, client) {
      if (!clientCredentials(ctx)) throw new errors.InvalidTarget('resource indicators are for client_credentials only');
      if (!(await resourceServerRegistered(db, indicator))) throw new errors.InvalidTarget('unknown resource server');
      const allowed = serviceScopesOf(client);
      const refused = requestedScopes(ctx).filter((scope) => !allowed.includes(scope));
      if (refused.length > 0) throw new errors.InvalidScope('requested scope is not allowed', refused.join(' '));
      return { scope: allowed.join(' '), audience: indicator, accessTokenTTL: LIMITS.SERVICE_TOKEN_TTL, accessTokenFormat: 'opaque' };
    },
  };
}

/** Every scope some service app was registered for, sorted. */
async function registeredServiceScopes(db: Queryable): Promise<string[]> {
  const result = await db.query<{ scope: string }>('select distinct unnest(service_scopes) as scope from clients where service_scopes is not null order by 1');
  return result.rows.map((row) => row.scope);
}

/**
 * Adds the service apps' scopes to discovery's `scopes_supported` (RFC 8414 §2 lists every scope a client may ask
 * for, client_credentials ones too). They are registered per client while the server runs (sso client add
 * --service-scope), so they are read on each discovery request rather than fixed in the provider's configuration.
 */
export function installServiceScopesInDiscovery(provider: Provider, db: Queryable): void {
  provider.use(async (ctx, next) => {
    await next();
    if ((ctx as { oidc?: { route?: string } }).oidc?.route !== 'discovery' || ctx.status !== 200) return;
    const body = ctx.body as { scopes_supported?: string[] };
    const listed = body.scopes_supported ?? [];
    body.scopes_supported = [...listed, ...(await registeredServiceScopes(db)).filter((scope) => !listed.includes(scope))];
  });
}
