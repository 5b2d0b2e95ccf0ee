import type { FastifyInstance } from 'fastify';

/** Every API answer (sign-in state, keys, profiles, errors) is for this request only: no cache may keep it. */
export function installApiNoStore(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    // A route that chose its own caching (the public facts about a client app) keeps it.
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
