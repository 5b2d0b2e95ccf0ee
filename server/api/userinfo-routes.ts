import type { FastifyInstance } from 'fastify';
import { findUserById } from '../store/users.ts';
import type { Services } from '../services.ts';
import { ApiError } from '../errors.ts';
import { responses } from './response-schemas.ts';

/** The profile claims, as OIDC userinfo names them. */
const USERINFO_ANSWER = {
  type: 'object',
  properties: {
    sub: { type: 'string' },
    email: { type: 'string' },
    email_verified: { type: 'boolean' },
    given_name: { type: 'string' },
    family_name: { type: 'string' },
    name: { type: 'string' },
  },
} as const;

/** `GET userinfo`: the signed-in user's profile for a valid bearer access token (same tokens as OIDC userinfo). */
export function userinfoRoutes(context: Pick<Services, 'db' | 'provider'>) {
  return async (app: FastifyInstance) => {
    app.get('/userinfo', { schema: { response: responses(USERINFO_ANSWER) } }, async (request) => {
      const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(request.headers.authorization ?? '');
      const accessToken = match?.[1] && (await context.provider.AccessToken.find(match[1]));
      if (!accessToken || accessToken.isExpired || !accessToken.accountId) throw new ApiError('auth.invalid_token');
      const user = await findUserById(context.db, accessToken.accountId);
      if (!user) throw new ApiError('auth.invalid_token');
      return {
        sub: user.id,
        email: user.email,
        email_verified: true,
        given_name: user.firstName,
        family_name: user.lastName,
        name: `${user.firstName} ${user.lastName}`.trim(),
      };
    });
  };
}
