import type { FastifyInstance } from 'fastify';
import { responses } from '../api/response-schemas.ts';
import { LIMITS } from '../limits.ts';
import { auditTrail, disableUser, enableUser, resetMfa, showUser, unlockUser, userSessions, type OperatorDeps, type SessionsAction } from './user-operations.ts';

const EMAIL_BODY = { type: 'object', required: ['email'], additionalProperties: false, properties: { email: { type: 'string', maxLength: 254 } } } as const;

const SESSIONS_BODY = {
  type: 'object',
  required: ['email'],
  additionalProperties: false,
  properties: { email: { type: 'string', maxLength: 254 }, end: { type: 'string', maxLength: 200 }, endAll: { type: 'boolean' } },
} as const;

/** The longest audit listing one call answers. */
const AUDIT_MAX = 1000;

const AUDIT_BODY = {
  type: 'object',
  additionalProperties: false,
  properties: {
    email: { type: 'string', maxLength: 254 },
    sinceSeconds: { type: 'integer', minimum: 0, maximum: 10 * 365 * 24 * 3600 },
    limit: { type: 'integer', minimum: 1, maximum: AUDIT_MAX },
  },
} as const;

const string = { type: 'string' } as const;
const strings = { type: 'array', items: string } as const;
const SESSION = { type: 'object', properties: { id: string, startedAt: string, expiresAt: string, clientIds: strings } } as const;
const TRUSTED_DEVICE = { type: 'object', properties: { id: string, userAgent: string, ip: string, createdAt: string, lastUsedAt: string, expiresAt: string } } as const;
const EVENT = {
  type: 'object',
  properties: { at: string, kind: string, email: string, ip: string, userAgent: string, detail: { type: 'object', additionalProperties: true } },
} as const;

const USER_REPORT = {
  type: 'object',
  properties: {
    user: {
      type: 'object',
      properties: { id: string, email: string, firstName: string, lastName: string, disabledAt: string, passwordChangedAt: string, resetRequired: { type: 'boolean' } },
    },
    factors: { type: 'array', items: { type: 'object', properties: { kind: string, destination: string } } },
    sessions: { type: 'array', items: SESSION },
    trustedDevices: { type: 'array', items: TRUSTED_DEVICE },
    lockout: {
      type: 'object',
      properties: {
        loginFailures: { type: 'integer' },
        waitingUntil: string,
        codeFailures: { type: 'array', items: { type: 'object', properties: { purpose: string, failures: { type: 'integer' }, until: string } } },
        totpFailures: { type: 'integer' },
        codeCaps: { type: 'array', items: { type: 'object', properties: { purpose: string, issued: { type: 'integer' }, until: string } } },
      },
    },
    companies: strings,
    events: { type: 'array', items: EVENT },
  },
} as const;

const RESET_MFA_ANSWER = { type: 'object', properties: { email: string, removed: strings, sessionsEnded: { type: 'integer' } } } as const;
const CHANGED_ANSWER = { type: 'object', properties: { email: string, changed: { type: 'boolean' }, sessionsEnded: { type: 'integer' } } } as const;
const SESSIONS_ANSWER = {
  type: 'object',
  properties: { email: string, ended: strings, sessions: { type: 'array', items: SESSION }, trustRevoked: { type: 'integer' }, trustedDevices: { type: 'array', items: TRUSTED_DEVICE } },
} as const;
const AUDIT_ANSWER = { type: 'object', properties: { events: { type: 'array', items: EVENT } } } as const;

type EmailBody = { Body: { email: string } };

/** The operator's user commands (recovering, unlocking, disabling a user; their sessions; the audit trail), each audited. */
export function userAdminRoutes(deps: OperatorDeps) {
  return async (app: FastifyInstance) => {
    app.post<EmailBody>('/users/show', { schema: { body: EMAIL_BODY, response: responses(USER_REPORT) } }, async (request) => showUser(deps, request.body.email));
    app.post<EmailBody>('/users/reset-mfa', { schema: { body: EMAIL_BODY, response: responses(RESET_MFA_ANSWER) } }, async (request) => resetMfa(deps, request.body.email));
    app.post<EmailBody>('/users/unlock', { schema: { body: EMAIL_BODY, response: responses(CHANGED_ANSWER) } }, async (request) => unlockUser(deps, request.body.email));
    app.post<EmailBody>('/users/disable', { schema: { body: EMAIL_BODY, response: responses(CHANGED_ANSWER) } }, async (request) => disableUser(deps, request.body.email));
    app.post<EmailBody>('/users/enable', { schema: { body: EMAIL_BODY, response: responses(CHANGED_ANSWER) } }, async (request) => enableUser(deps, request.body.email));
    app.post<{ Body: { email: string; end?: string; endAll?: boolean } }>(
      '/users/sessions',
      { schema: { body: SESSIONS_BODY, response: responses(SESSIONS_ANSWER) } },
      async (request) => {
        const { email, end, endAll } = request.body;
        const action: SessionsAction = end !== undefined ? { end } : endAll === true ? { endAll: true } : { list: true };
        return userSessions(deps, email, action);
      },
    );
    app.post<{ Body: { email?: string; sinceSeconds?: number; limit?: number } }>(
      '/audit',
      { schema: { body: AUDIT_BODY, response: responses(AUDIT_ANSWER) } },
      async (request) => ({ events: await auditTrail(deps, { ...request.body, limit: request.body.limit ?? LIMITS.SECURITY_EVENTS_LISTED }) }),
    );
  };
}
