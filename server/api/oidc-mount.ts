import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { logoutWithoutSession } from '../oidc/logout-without-session.ts';
import { providerPagePolicy } from '../oidc/page-policy.ts';
import { OIDC_PREFIX } from '../oidc/provider.ts';

/** The discovery document stays at the root, where OpenID Connect Discovery says to look for it. */
const DISCOVERY_PATH = '/.well-known/openid-configuration';

/** oidc-provider's own limit on a request body. */
const PROVIDER_BODY_LIMIT = 56 * 1024;

/**
 * Hands `/.well-known/openid-configuration` and everything under `/oidc/` (any method) to oidc-provider, with the
 * app's security `headers`. Fastify reads the body as raw bytes, so the app's input guard sees it before the
 * provider does; the provider then takes those bytes as `req.body` (the fallback it has for an upstream parser).
 */
export function registerOidcRoutes(app: FastifyInstance, source: Provider | (() => Provider), headers: Readonly<Record<string, string>>): void {
  const current = typeof source === 'function' ? source : () => source;
  const publicUrl = new URL(current().issuer);
  // The provider may be replaced while the server runs (a key rotation): each instance is prepared once, when first used.
  const callbacks = new WeakMap<Provider, ReturnType<Provider['callback']>>();
  const callbackOf = (provider: Provider) => {
    let callback = callbacks.get(provider);
    if (!callback) {
      // oidc-provider builds absolute URLs (discovery endpoints, the resume URL, form actions) from the request, as
      // Koa sees it. Koa is told to read the forwarded headers, and `forward` overwrites them with the issuer's own
      // scheme and host, so those URLs always match the configured public URL: a forged Host header cannot change
      // them, and behind a TLS-terminating proxy the request counts as secure, so Secure cookies can be set.
      provider.proxy = true;
      provider.use(providerPagePolicy(headers));
      // Inside the page policy, so its answers get the same headers.
      provider.use(logoutWithoutSession(provider, provider.pathFor('end_session')));
      provider.on('server_error', (_ctx: unknown, error: unknown) => app.log.error({ err: error }, 'oidc-provider server error'));
      callback = provider.callback();
      callbacks.set(provider, callback);
    }
    return callback;
  };
  callbackOf(current());

  const forward = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    // Hijacked replies skip Fastify's onSend hooks; the provider's page policy sets the same headers.
    reply.hijack();
    const forwarded = request.raw.headers;
    forwarded['x-forwarded-proto'] = publicUrl.protocol.slice(0, -1);
    forwarded['x-forwarded-host'] = publicUrl.host;
    // Fastify's view of the client address, which honours its own trustProxy setting.
    forwarded['x-forwarded-for'] = request.ip;
    if (Buffer.isBuffer(request.body)) Object.assign(request.raw, { body: request.body });
    await callbackOf(current())(request.raw, reply.raw);
  };

  // Encapsulated, so the raw-bytes parser applies to these routes only and the API keeps its JSON parser.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: PROVIDER_BODY_LIMIT }, (_request, body, done) => done(null, body));
    scope.all(DISCOVERY_PATH, forward);
    scope.all(`${OIDC_PREFIX}/*`, forward);
  });
}
