import type { FastifyInstance } from 'fastify';
import { isNoticeLinkLive, reportNotMe } from '../auth/security-notices.ts';
import { ApiError } from '../errors.ts';
import type { Services } from '../services.ts';
import { responses } from './response-schemas.ts';
import { admitOpenStep, type StepDeps } from './step-guard.ts';

const PATH = 'account/not-me';

/** The shape of a notice link's token. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The token may be missing or cut short (a link mangled by a mail client): that is a link that no longer works, not a bad request. */
const TOKEN_QUERY = {
  type: 'object',
  additionalProperties: false,
  properties: { token: { type: 'string', maxLength: 200 } },
} as const;

/** `pending` while the link waits for the owner's confirmation; `reported` once it is done. */
const NOT_ME_ANSWER = { type: 'object', properties: { not_me: { type: 'string' } } } as const;

/**
 * A security notice's "This wasn't me" link. `GET` only checks that the link still works (a mail scanner that
 * follows it changes nothing); `POST` signs the account out everywhere, makes the next sign-in reset the password
 * and records the report in the audit trail.
 */
export function notMeRoutes(context: StepDeps & Pick<Services, 'provider'>) {
  return async (app: FastifyInstance) => {
    app.get<{ Querystring: { token?: string } }>(`/${PATH}`, { schema: { querystring: TOKEN_QUERY, response: responses(NOT_ME_ANSWER) } }, async (request) => {
      if (!context.flows.openStepFor(PATH, 'GET')) throw new ApiError('step.not_available');
      const { token } = request.query;
      if (token === undefined || !TOKEN_PATTERN.test(token) || !(await isNoticeLinkLive(context.db, token, new Date(context.clock())))) throw new ApiError('notice_link.expired');
      return { not_me: 'pending' };
    });

    app.post(`/${PATH}`, { schema: { response: responses(NOT_ME_ANSWER) } }, async (request) => {
      const payload = await admitOpenStep(context, request, PATH);
      const origin = { ip: request.ip, userAgent: request.headers['user-agent'] };
      const deps = { ...context, onLogoutDeliveryFailure: ({ clientId, error }: { clientId: string; error: unknown }) => request.log.warn({ clientId, err: error }, 'back-channel logout failed') };
      if (!(await reportNotMe(deps, String(payload.token), origin))) throw new ApiError('notice_link.expired');
      return { not_me: 'reported' };
    });
  };
}
