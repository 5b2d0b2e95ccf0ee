import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';
import { responses } from './response-schemas.ts';

/** The analytics configuration: the tag manager's id, null while analytics is off. */
const GAID_ANSWER = {
  type: 'object',
  properties: { data: { type: 'object', properties: { gtmId: { type: ['string', 'null'] } } } },
} as const;

/** `GET /api/gaid` (analytics config, read by the app as data.data.gtmId) and `GET /healthz`. */
export function serviceRoutes(context: Pick<Services, 'config' | 'db'>) {
  return async (app: FastifyInstance) => {
    app.get('/api/gaid', { schema: { response: responses(GAID_ANSWER) } }, async () => ({ data: { gtmId: context.config.gtmId ?? null } }));
    app.get('/healthz', async (_request, reply) => {
      const up = await context.db.ping();
      reply.code(up ? 200 : 503).header('cache-control', 'no-store');
      return { status: up ? 'ok' : 'unavailable', database: up ? 'up' : 'down' };
    });
  };
}
