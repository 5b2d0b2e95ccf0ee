import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * On the provider's origin, `/demo/…` (an old bookmark, the address printed at start before the demo moved) sends
 * the browser on to the same path on the demo's own origin, where the demo client app really runs. The target's
 * origin is fixed, so no request can make this an open redirect.
 */
export function demoRedirectRoutes(demoUrl: string) {
  const onward = (request: FastifyRequest, reply: FastifyReply) => reply.header('cache-control', 'no-store').redirect(new URL(request.url, demoUrl).href, 303);
  return async (app: FastifyInstance) => {
    app.get('/demo', onward);
    app.get('/demo/*', onward);
  };
}
