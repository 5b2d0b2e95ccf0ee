import { ONE_TIME_CODE_SCHEMA } from '../../contract/one-time-code.ts';
import { NO_BIDI_CONTROLS } from '../../contract/text-input.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { securityActivity } from '../account/account-activity.ts';
import { cancelPendingEmailChange, confirmEmailChange, requestEmailChange } from '../account/account-email.ts';
import { changeNames, changePassword, listCompanies, readProfile, switchCompany } from '../account/account-profile.ts';
import { PASSKEY_ANSWER_BODY } from './passkey-sign-in-routes.ts';
import { addPasskeyFactor, beginAddFactor, chooseDefaultFactor, completePasskeyStepUp, completeStepUp, confirmAddFactor, listFactors, nameFactor, removeFactor, startStepUp } from '../account/account-factors.ts';
import { listAccountSessions, signOutOtherSessions, signOutSession } from '../account/account-sessions.ts';
import { authenticateAccountCaller, type AccountCaller } from '../account/account-token.ts';
import { newRecoveryCodes, recoveryCodeSummary } from '../account/account-recovery.ts';
import { listAppsWithAccess, revokeAppAccess } from '../account/account-apps.ts';
import { listTrustedBrowsers, revokeAllTrustedBrowsers, revokeTrustedBrowser } from '../account/account-trust.ts';
import { LIMITS } from '../limits.ts';
import type { Services } from '../services.ts';
import { responses } from './response-schemas.ts';

/** Every account answer is a small JSON object; each route documents its fields in the domain function it calls. */
const ACCOUNT_ANSWER = { type: 'object', additionalProperties: true } as const;

const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const factorParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: UUID } } } as const;
const appParams = { type: 'object', required: ['clientId'], properties: { clientId: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{1,99}$' } } } as const;
const sessionParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' } } } as const;
const codeBody = { type: 'object', required: ['code'], additionalProperties: false, properties: { code: ONE_TIME_CODE_SCHEMA } } as const;
const stepUpBody = {
  type: 'object',
  required: ['factorId'],
  additionalProperties: false,
  properties: { factorId: { type: 'string', pattern: UUID }, code: ONE_TIME_CODE_SCHEMA, credential: { type: 'object', maxProperties: 10 } },
} as const;
const addBody = {
  type: 'object',
  required: ['kind'],
  additionalProperties: false,
  properties: { kind: { type: 'string', maxLength: 16 }, phone: { type: 'string', maxLength: 40 } },
} as const;
const nameBody = { type: 'object', required: ['label'], additionalProperties: false, properties: { label: { type: 'string', maxLength: LIMITS.FACTOR_LABEL_MAX, ...NO_BIDI_CONTROLS } } } as const;

const namesBody = {
  type: 'object',
  required: ['firstName', 'lastName'],
  additionalProperties: false,
  properties: { firstName: { type: 'string', maxLength: 200, ...NO_BIDI_CONTROLS }, lastName: { type: 'string', maxLength: 200, ...NO_BIDI_CONTROLS } },
} as const;
const passwordBody = {
  type: 'object',
  required: ['currentPassword', 'newPassword'],
  additionalProperties: false,
  properties: { currentPassword: { type: 'string', maxLength: 4096 }, newPassword: { type: 'string', maxLength: 4096 } },
} as const;

const emailBody = { type: 'object', required: ['email'], additionalProperties: false, properties: { email: { type: 'string', maxLength: 320 } } } as const;

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

/**
 * The account page's API (`/account/...`): every call carries the account page's own access token as a bearer
 * token, so it acts for the person signed in to the account page and for nobody else. No cookies: no CSRF.
 */
export function accountRoutes(context: Services) {
  const caller = (request: FastifyRequest): Promise<AccountCaller> => authenticateAccountCaller(context.provider, request.headers.authorization, { ip: request.ip, userAgent: request.headers['user-agent'] });
  const ok = { schema: { response: responses(ACCOUNT_ANSWER) } };
  return async (app: FastifyInstance) => {
    app.get('/account/factors', ok, async (request) => listFactors(context, await caller(request)));

    app.post<{ Body: { factorId: string; code?: string; credential?: object } }>('/account/step-up', { schema: { body: stepUpBody, response: responses(ACCOUNT_ANSWER) } }, async (request) => {
      const who = await caller(request);
      const { factorId, code, credential } = request.body;
      if (credential !== undefined) return completePasskeyStepUp(context, who, credential);
      return code === undefined ? startStepUp(context, who, factorId) : completeStepUp(context, who, factorId, code);
    });

    app.post<{ Body: { credential: object; name?: string } }>('/account/passkeys', { schema: { body: PASSKEY_ANSWER_BODY, response: responses(ACCOUNT_ANSWER) } }, async (request) => {
      const who = await caller(request);
      await addPasskeyFactor(context, who, request.body.credential, request.body.name ?? '');
      return listFactors(context, who);
    });

    app.post<{ Body: { kind: string; phone?: string } }>('/account/factors', { schema: { body: addBody, response: responses(ACCOUNT_ANSWER) } }, async (request) =>
      beginAddFactor(context, await caller(request), request.body.kind, request.body.phone),
    );

    app.post<{ Params: { id: string }; Body: { code: string } }>(
      '/account/factors/:id/confirmation',
      { schema: { params: factorParams, body: codeBody, response: responses(ACCOUNT_ANSWER) } },
      async (request) => {
        await confirmAddFactor(context, await caller(request), request.params.id, request.body.code);
        return listFactors(context, await caller(request));
      },
    );

    app.post<{ Params: { id: string }; Body: { label: string } }>(
      '/account/factors/:id/name',
      { schema: { params: factorParams, body: nameBody, response: responses(ACCOUNT_ANSWER) } },
      async (request) => {
        const who = await caller(request);
        await nameFactor(context, who, request.params.id, request.body.label);
        return listFactors(context, who);
      },
    );

    app.post('/account/factors/:id/default', { schema: { params: factorParams, response: responses(ACCOUNT_ANSWER) } }, async (request: IdRequest) => {
      const who = await caller(request);
      await chooseDefaultFactor(context, who, request.params.id);
      return listFactors(context, who);
    });

    app.post('/account/factors/:id/removal', { schema: { params: factorParams, response: responses(ACCOUNT_ANSWER) } }, async (request: IdRequest) => {
      const who = await caller(request);
      await removeFactor(context, who, request.params.id);
      return listFactors(context, who);
    });

    app.get('/account/recovery-codes', ok, async (request) => recoveryCodeSummary(context, await caller(request)));
    app.post('/account/recovery-codes', ok, async (request) => newRecoveryCodes(context, await caller(request)));

    app.get('/account/profile', ok, async (request) => readProfile(context, await caller(request)));
    app.post<{ Body: { firstName: string; lastName: string } }>('/account/profile', { schema: { body: namesBody, response: responses(ACCOUNT_ANSWER) } }, async (request) =>
      changeNames(context, await caller(request), request.body.firstName, request.body.lastName),
    );
    app.post<{ Body: Record<string, unknown> }>('/account/password', { schema: { body: passwordBody, response: responses(ACCOUNT_ANSWER) } }, async (request) =>
      changePassword(context, await caller(request), request.body),
    );
    app.post<{ Body: { email: string } }>('/account/email', { schema: { body: emailBody, response: responses(ACCOUNT_ANSWER) } }, async (request) =>
      requestEmailChange(context, await caller(request), request.body.email),
    );
    app.post<{ Body: { code: string } }>('/account/email/confirmation', { schema: { body: codeBody, response: responses(ACCOUNT_ANSWER) } }, async (request) =>
      confirmEmailChange(context, await caller(request), request.body.code),
    );
    app.post('/account/email/cancellation', ok, async (request) => cancelPendingEmailChange(context, await caller(request)));
    app.get('/account/companies', ok, async (request) => listCompanies(context, await caller(request)));
    app.post('/account/companies/:id/choice', { schema: { params: factorParams, response: responses(ACCOUNT_ANSWER) } }, async (request: IdRequest) =>
      switchCompany(context, await caller(request), request.params.id),
    );
    app.get('/account/activity', ok, async (request) => securityActivity(context, await caller(request)));
    app.get('/account/sessions', ok, async (request) => ({ sessions: await listAccountSessions(context, await caller(request)) }));
    app.post('/account/sessions/others/sign-out', ok, async (request) => signOutOtherSessions(context, await caller(request)));
    app.post('/account/sessions/:id/sign-out', { schema: { params: sessionParams, response: responses(ACCOUNT_ANSWER) } }, async (request: IdRequest) => {
      await signOutSession(context, await caller(request), request.params.id);
      return { ended: 1 };
    });

    app.get('/account/trusted-devices', ok, async (request) => listTrustedBrowsers(context, await caller(request)));
    app.post('/account/trusted-devices/revocation', ok, async (request) => revokeAllTrustedBrowsers(context, await caller(request)));
    app.post('/account/trusted-devices/:id/revocation', { schema: { params: factorParams, response: responses(ACCOUNT_ANSWER) } }, async (request: IdRequest) =>
      revokeTrustedBrowser(context, await caller(request), request.params.id),
    );
    app.get('/account/apps', ok, async (request) => listAppsWithAccess(context, await caller(request)));
    app.post<{ Params: { clientId: string } }>('/account/apps/:clientId/revocation', { schema: { params: appParams, response: responses(ACCOUNT_ANSWER) } }, async (request) =>
      revokeAppAccess(context, await caller(request), request.params.clientId),
    );
  };
}
