import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { OIDC_PREFIX } from '../oidc/provider.ts';

/** The discovery document stays at the root, where OpenID Connect Discovery says to look for it. */
const DISCOVERY_PATH = '/.well-known/openid-configuration';

/**
 * Hands `/.well-known/openid-configuration` and everything under `/oidc/` (any method) to oidc-provider.
 * Fastify must leave the body alone: oidc-provider reads the raw stream itself (with its own 56 KiB limit).
 */
export function registerOidcRoutes(app: FastifyInstance, provider: Provider): void {
  const publicUrl = new URL(provider.issuer);
  // oidc-provider builds absolute URLs (discovery endpoints, the resume URL, form actions) from the request, as Koa
  // sees it. Koa is told to read the forwarded headers, and `forward` overwrites them with the issuer's own scheme and
  // host, so those URLs always match the configured public URL: a forged Host header cannot change them, and behind
  // a TLS-terminating proxy the request counts as secure, so Secure cookies can be set.
  provider.proxy = true;
  const callback = provider.callback();
  provider.on('server_error', (_ctx: unknown, error: unknown) => app.log.error({ err: error }, 'oidc-provider server error'));

  const forward = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    // Hijacked replies skip Fastify's onSend hooks; oidc-provider sets its own cache and security headers.
    reply.hijack();
    const headers = request.raw.headers;
    headers['x-forwarded-proto'] = publicUrl.protocol.slice(0, -1);
    headers['x-forwarded-host'] = publicUrl.host;
    // Fastify's view of the client address, which honours its own trustProxy setting.
    headers['x-forwarded-for'] = request.ip;
    await callback(request.raw, reply.raw);
  };

  // Encapsulated, so the pass-through parser applies to these routes only and the API keeps its JSON parser.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.all(DISCOVERY_PATH, forward);
    scope.all(`${OIDC_PREFIX}/*`, forward);
  });
}
