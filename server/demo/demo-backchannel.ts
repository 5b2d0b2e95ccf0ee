import type { FastifyReply, FastifyRequest } from 'fastify';
import type * as oidc from 'openid-client';
import type { Queryable } from '../db/database.ts';
import { ApiError } from '../errors.ts';
import { LIMITS } from '../limits.ts';
import { recordDemoLogout } from '../store/demo-logouts.ts';
import { InvalidLogoutTokenError, verifyLogoutToken } from './logout-token.ts';

/** A refused logout token gets a 400 (Back-Channel Logout 1.0, 2.8) in the product's error shape. */
const INVALID_LOGOUT_TOKEN = 'The logout token is missing or not valid.';

/** How a back-channel logout names a demo session: the client app and the provider's session id for it. */
export const logoutSubject = (clientId: string, sid: string) => `${clientId}:${sid}`;

/**
 * The demo's back-channel logout endpoint: the provider POSTs a signed logout token when a session of one of the
 * demo's apps ends (OpenID Connect Back-Channel Logout); the session it names is remembered as ended.
 */
export function backchannelLogout<Client extends { clientId: string }>(deps: {
  db: Queryable;
  clients: readonly Client[];
  customFetch?: oidc.CustomFetch;
  configurationFor: (client: Client) => Promise<oidc.Configuration>;
}) {
  const { clients, configurationFor } = deps;
  return async (request: FastifyRequest<{ Body: Record<string, string> }>, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store');
    const token = request.body?.logout_token;
    if (typeof token !== 'string' || clients.length === 0) throw new ApiError('request.invalid', INVALID_LOGOUT_TOKEN);
    try {
      const metadata = (await configurationFor(clients[0]!)).serverMetadata();
      const notice = await verifyLogoutToken(token, {
        issuer: metadata.issuer,
        clientIds: clients.map((client) => client.clientId),
        jwksUri: String(metadata.jwks_uri),
        fetch: deps.customFetch ?? fetch,
      });
      const now = Date.now();
      await recordDemoLogout(deps.db, logoutSubject(notice.clientId, notice.sid), new Date(now), new Date(now + LIMITS.SESSION_TTL * 1000));
      return reply.code(200).send({});
    } catch (error) {
      if (!(error instanceof InvalidLogoutTokenError)) throw error;
      request.log.warn({ reason: error.message }, 'demo client refused a logout token');
      throw new ApiError('request.invalid', INVALID_LOGOUT_TOKEN);
    }
  };
}
