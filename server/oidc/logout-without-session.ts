import type { Middleware, ParameterizedContext } from 'koa';
import type Provider from 'oidc-provider';
import { signedOutPage } from './pages.ts';

/** The RP-initiated logout parameters this answer reads (OpenID Connect RP-Initiated Logout 1.0 §2). */
const READ = ['id_token_hint', 'client_id', 'post_logout_redirect_uri', 'state'] as const;
type Read = Partial<Record<(typeof READ)[number], string>>;

/** The request's parameters (query, or a form body), or undefined when one is given twice: the provider refuses that. */
function logoutParameters(ctx: ParameterizedContext): Read | undefined {
  const body = (ctx.req as { body?: unknown }).body;
  const form = ctx.method === 'POST' && ctx.is('application/x-www-form-urlencoded') && Buffer.isBuffer(body) ? new URLSearchParams(body.toString('utf8')) : undefined;
  const source = form ?? new URLSearchParams(ctx.querystring);
  const params: Read = {};
  for (const name of READ) {
    const values = source.getAll(name);
    if (values.length > 1) return undefined;
    if (values[0] !== undefined) params[name] = values[0];
  }
  return params;
}

/**
 * The client the request names (by a valid ID token hint, or its client_id) and its post-logout address, as the
 * provider checks them; undefined when any check fails, so the provider answers with its own error.
 */
async function checkedTarget(provider: Provider, params: Read): Promise<{ clientName?: string; redirect?: string } | undefined> {
  let clientId = params.client_id;
  if (params.id_token_hint !== undefined) {
    const audience = await Promise.resolve()
      .then(() => JSON.parse(Buffer.from(params.id_token_hint!.split('.')[1] ?? '', 'base64url').toString('utf8')) as { aud?: unknown })
      .catch(() => undefined);
    if (typeof audience?.aud !== 'string' || (clientId !== undefined && clientId !== audience.aud)) return undefined;
    clientId = audience.aud;
  }
  if (clientId === undefined) return {};
  const client = await provider.Client.find(clientId).catch(() => undefined);
  if (!client) return undefined;
  if (params.id_token_hint !== undefined && !(await provider.IdToken.validate(params.id_token_hint, client).then(() => true, () => false))) return undefined;
  const uri = params.post_logout_redirect_uri;
  if (uri !== undefined && !client.postLogoutRedirectUriAllowed(uri)) return undefined;
  return { clientName: client.clientName ?? client.clientId, redirect: uri };
}

/**
 * RP-initiated logout (`/oidc/session/end`) with no signed-in session: there is nothing to end, so the browser goes
 * straight back to the app's checked post-logout address (with its `state`), or sees the signed-out page, and no
 * cookie is set and nothing stored (oidc-provider would open a session just to carry its confirmation's CSRF token).
 * A request the provider would refuse is left to it, as is every request of a signed-in session.
 */
export function logoutWithoutSession(provider: Provider, path: string): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== path || (ctx.method !== 'GET' && ctx.method !== 'POST')) return next();
    const session = await provider.Session.get(ctx);
    if (session.accountId) return next();
    const params = logoutParameters(ctx);
    const target = params && (await checkedTarget(provider, params));
    if (target === undefined) return next();
    if (target.redirect === undefined) return signedOutPage(ctx, target.clientName);
    const back = new URL(target.redirect);
    if (params?.state !== undefined) back.searchParams.set('state', params.state);
    ctx.status = 303;
    ctx.redirect(back.href);
  };
}
