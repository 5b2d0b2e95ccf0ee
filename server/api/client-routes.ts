import type { FastifyInstance } from 'fastify';
import { LIMITS } from '../limits.ts';
import { findClientInfo } from '../store/clients.ts';
import type { Services } from '../services.ts';
import { ApiError } from '../errors.ts';
import { responses } from './response-schemas.ts';

/** The public facts about a client app; `name` and `client_name` say the same, as both spellings are read. */
const CLIENT_ANSWER = {
  type: 'object',
  properties: { client_id: { type: 'string' }, name: { type: 'string' }, client_name: { type: 'string' } },
} as const;

/** `GET clients/{client_id}`: the public facts about a client app, so screens can say where the user is going. */
export function clientRoutes(context: Pick<Services, 'db'>) {
  return async (app: FastifyInstance) => {
    app.get<{ Params: { client_id: string } }>(
      '/clients/:client_id',
      { schema: { params: { type: 'object', properties: { client_id: { type: 'string', minLength: 1, maxLength: 200 } } }, response: responses(CLIENT_ANSWER) } },
      async (request, reply) => {
        const client = await findClientInfo(context.db, request.params.client_id);
        if (!client) throw new ApiError('client.not_found');
        reply.header('cache-control', `public, max-age=${LIMITS.CLIENT_INFO_MAX_AGE}`);
        return { client_id: client.clientId, name: client.name, client_name: client.name };
      },
    );
  };
}
