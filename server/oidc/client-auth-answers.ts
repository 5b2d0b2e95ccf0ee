import type Provider from 'oidc-provider';

/** The endpoints where a client must authenticate and where the provider calls a missing credential a bad request. */
const CLIENT_AUTH_ROUTES: ReadonlySet<string> = new Set(['introspection', 'revocation']);

/** oidc-provider's wording when a request names no client at all. */
const NO_CREDENTIAL = 'no client authentication mechanism provided';

/**
 * Answers a revocation or introspection request that carries no client credential at all with `401 invalid_client`
 * (RFC 6749 §5.2, RFC 7009 §2.1, RFC 7662 §2.1), as one with a wrong credential already is, where oidc-provider says
 * `400 invalid_request`.
 */
export function installMissingCredentialAnswer(provider: Provider): void {
  provider.use(async (ctx, next) => {
    await next();
    const route = (ctx as { oidc?: { route?: string } }).oidc?.route;
    if (ctx.status !== 400 || route === undefined || !CLIENT_AUTH_ROUTES.has(route)) return;
    const body = ctx.body as { error?: unknown; error_description?: unknown } | undefined;
    if (body?.error !== 'invalid_request' || body.error_description !== NO_CREDENTIAL) return;
    ctx.status = 401;
    ctx.body = { error: 'invalid_client', error_description: 'client authentication failed: no client credential was sent' };
    ctx.set('www-authenticate', `Basic realm="${provider.issuer}"`);
  });
}
