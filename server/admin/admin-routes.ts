import type { FastifyInstance, FastifyRequest } from 'fastify';
import { responses } from '../api/response-schemas.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Mailer } from '../mail/mailer.ts';
import { addCompany, addUserToCompany, companyListing, invite, type InviteInput } from './company-operations.ts';
import { secretsEqual } from '../crypto/hash.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Database } from '../db/database.ts';
import { addClient, addUser, requireReset, rotateKeys } from './operations.ts';
import { OperationError } from './operation-error.ts';
import type { KeyStore } from '../crypto/key-store.ts';
import { userAdminRoutes } from './user-admin-routes.ts';
import { clientAdminRoutes } from './client-admin-routes.ts';
import { CLIENT_SECURITY_INPUT_PROPERTIES } from './client-security-input.ts';
import type { ClientDirectory } from '../auth/sessions.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

const addClientSchema = {
  type: 'object',
  required: ['clientId', 'redirectUris', 'isPublic'],
  additionalProperties: false,
  properties: {
    clientId: { type: 'string', maxLength: 100 },
    redirectUris: { type: 'array', items: { type: 'string', maxLength: 2000 }, maxItems: 20 },
    name: { type: 'string', maxLength: 200 },
    isPublic: { type: 'boolean' },
    refreshTokens: { type: 'boolean' },
    initiateLoginUri: { type: 'string', maxLength: 2000 },
    postLogoutRedirectUris: { type: 'array', items: { type: 'string', maxLength: 2000 }, maxItems: 20 },
    backchannelLogoutUri: { type: 'string', maxLength: 2000 },
    idTokenAlg: { type: 'string', maxLength: 10 },
    ...CLIENT_SECURITY_INPUT_PROPERTIES,
  },
} as const;

const addUserSchema = {
  type: 'object',
  required: ['email'],
  additionalProperties: false,
  properties: {
    email: { type: 'string', maxLength: 254 },
    password: { type: 'string', maxLength: 1024 },
    firstName: { type: 'string', maxLength: 100 },
    lastName: { type: 'string', maxLength: 100 },
    temporary: { type: 'boolean' },
    preRegistered: { type: 'boolean' },
  },
} as const;

const requireResetSchema = {
  type: 'object',
  required: ['email'],
  additionalProperties: false,
  properties: { email: { type: 'string', maxLength: 254 } },
} as const;

const companySchema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: { name: { type: 'string', maxLength: 1000 } },
} as const;

const membershipSchema = {
  type: 'object',
  required: ['name', 'email'],
  additionalProperties: false,
  properties: { name: { type: 'string', maxLength: 1000 }, email: { type: 'string', maxLength: 254 } },
} as const;

const companyListingSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { name: { type: 'string', maxLength: 1000 } },
} as const;

const inviteSchema = {
  type: 'object',
  required: ['email', 'company'],
  additionalProperties: false,
  properties: { email: { type: 'string', maxLength: 254 }, company: { type: 'string', maxLength: 1000 }, clientId: { type: 'string', maxLength: 100 } },
} as const;

const string = { type: 'string' } as const;

/** A registered client; `secret` only for a confidential one, shown this once. */
const CLIENT_ADDED = { type: 'object', properties: { clientId: string, secret: string, created: { type: 'boolean' } } } as const;

/** The user an operation made or changed. */
const USER_ANSWER = { type: 'object', properties: { id: string, email: string } } as const;

const COMPANY_ANSWER = { type: 'object', properties: { id: string, name: string } } as const;

const MEMBERSHIP_ANSWER = { type: 'object', properties: { company: string, email: string } } as const;

/** Every company with its member count, or one company and its members' addresses. */
const COMPANY_LISTING = {
  type: 'object',
  properties: {
    companies: { type: 'array', items: { type: 'object', properties: { id: string, name: string, members: { type: 'integer' } } } },
    members: { type: 'array', items: string },
  },
} as const;

/** The new keys' ids. */
const KEYS_ROTATED = { type: 'object', properties: { signing: { type: 'array', items: string }, credentials: string } } as const;

/** Whom the invitation went to; `expiresAt` only when a link was sent (`invited`). */
const INVITATION_ANSWER = { type: 'object', properties: { email: string, company: string, invited: { type: 'boolean' }, expiresAt: string } } as const;

/**
 * The admin API the CLI uses while the server holds the embedded database: loopback only, and only with the
 * token the server wrote into DATA_DIR at start (readable by the operator's account alone).
 */
export function adminRoutes(deps: { db: Database; box: SecretBox; token: string; mailer: Mailer; config: Config; clock: Clock; keys: KeyStore; provider: ClientDirectory }) {
  const authorize = async (request: FastifyRequest) => {
    const presented = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!LOOPBACK.has(request.socket.remoteAddress ?? '') || !secretsEqual(presented, deps.token)) {
      throw Object.assign(new Error('forbidden'), { statusCode: 403 });
    }
  };
  return async (app: FastifyInstance) => {
    app.addHook('onRequest', authorize);
    app.setErrorHandler((error: Error, _request, reply) => {
      const status = error instanceof OperationError ? 400 : (error as { statusCode?: number }).statusCode === 403 ? 403 : 400;
      reply.code(status).send({ error_code: status === 403 ? 'admin.forbidden' : 'admin.invalid', error_message: error.message });
    });
    app.post<{ Body: Parameters<typeof addClient>[1] }>('/clients', { schema: { body: addClientSchema, response: responses(CLIENT_ADDED) } }, async (request) =>
      addClient(deps, request.body),
    );
    app.post<{ Body: Parameters<typeof addUser>[1] }>('/users', { schema: { body: addUserSchema, response: responses(USER_ANSWER) } }, async (request) => {
      const user = await addUser(deps, request.body);
      return { id: user.id, email: user.email };
    });
    app.post<{ Body: { email: string } }>('/users/require-reset', { schema: { body: requireResetSchema, response: responses(USER_ANSWER) } }, async (request) => {
      const user = await requireReset({ ...deps, onLogoutDeliveryFailure: ({ clientId, error }) => request.log.warn({ clientId, err: error }, 'back-channel logout failed') }, request.body.email);
      return { id: user.id, email: user.email };
    });
    app.post<{ Body: { name: string } }>('/companies', { schema: { body: companySchema, response: responses(COMPANY_ANSWER) } }, async (request) => addCompany(deps, request.body.name));
    app.post<{ Body: { name: string; email: string } }>('/companies/members', { schema: { body: membershipSchema, response: responses(MEMBERSHIP_ANSWER) } }, async (request) => {
      const { company, email } = await addUserToCompany(deps, request.body.name, request.body.email);
      return { company: company.name, email };
    });
    app.post<{ Body: { name?: string } }>('/companies/listing', { schema: { body: companyListingSchema, response: responses(COMPANY_LISTING) } }, async (request) =>
      companyListing(deps, request.body.name),
    );
    app.post('/keys/rotate', { schema: { response: responses(KEYS_ROTATED) } }, async () => rotateKeys(deps.keys));
    app.post<{ Body: InviteInput }>('/invitations', { schema: { body: inviteSchema, response: responses(INVITATION_ANSWER) } }, async (request) => invite(deps, request.body));
    await app.register(clientAdminRoutes(deps));
    await app.register(userAdminRoutes({ ...deps, onLogoutDeliveryFailure: ({ clientId, error }) => app.log.warn({ clientId, err: error }, 'back-channel logout failed') }));
  };
}
