import type { FastifyInstance } from 'fastify';
import { responses } from '../api/response-schemas.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Database } from '../db/database.ts';
import { clientReports, updateClient, type UpdateClientInput } from './client-operations.ts';
import { CLIENT_SECURITY_INPUT_PROPERTIES } from './client-security-input.ts';

const uris = { type: 'array', items: { type: 'string', maxLength: 2000 }, maxItems: 20 } as const;
const string = { type: 'string' } as const;

const updateClientSchema = {
  type: 'object',
  required: ['clientId'],
  additionalProperties: false,
  properties: {
    clientId: { type: 'string', maxLength: 100 },
    name: { type: 'string', maxLength: 200 },
    redirectUris: uris,
    initiateLoginUri: { type: 'string', maxLength: 2000 },
    refreshTokens: { type: 'boolean' },
    postLogoutRedirectUris: uris,
    backchannelLogoutUri: { type: 'string', maxLength: 2000 },
    ...CLIENT_SECURITY_INPUT_PROPERTIES,
  },
} as const;

const listingSchema = { type: 'object', additionalProperties: false, properties: { clientId: { type: 'string', maxLength: 100 } } } as const;

const CLIENT_UPDATED = { type: 'object', properties: { clientId: string, secret: string } } as const;

const CLIENT_REPORTS = {
  type: 'object',
  properties: {
    clients: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          clientId: string,
          name: string,
          type: string,
          authMethod: string,
          profile: string,
          redirectUris: { type: 'array', items: string },
          initiateLoginUri: string,
          postLogoutRedirectUris: { type: 'array', items: string },
          backchannelLogoutUri: string,
          refreshTokens: { type: 'boolean' },
          jwks: string,
          signingAlg: string,
          serviceScopes: { type: 'array', items: string },
          resourceServer: string,
        },
      },
    },
  },
} as const;

/** The admin API's client commands beyond `client add`: `client update`, `client list`, `client show`. */
export function clientAdminRoutes(deps: { db: Database; box: SecretBox }) {
  return async (app: FastifyInstance) => {
    app.post<{ Body: UpdateClientInput }>('/clients/update', { schema: { body: updateClientSchema, response: responses(CLIENT_UPDATED) } }, async (request) =>
      updateClient(deps, request.body),
    );
    app.post<{ Body: { clientId?: string } }>('/clients/listing', { schema: { body: listingSchema, response: responses(CLIENT_REPORTS) } }, async (request) => ({
      clients: await clientReports(deps, request.body.clientId),
    }));
  };
}
