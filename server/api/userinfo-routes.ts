import type { FastifyInstance } from 'fastify';
import { findUserById } from '../store/users.ts';
import type { Services } from '../services.ts';
import { ApiError } from '../errors.ts';

/** `GET userinfo`: the signed-in user's profile for a valid bearer access token (same tokens as OIDC userinfo). */
export function userinfoRoutes(context: Pick<Services, 'db' | 'provider'>) {
  return async (app: FastifyInstance) => {
    app.get('/userinfo', async (request, reply) => {
      const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(request.headers.authorization ?? '');
      const accessToken = match?.[1] && (await context.provider.AccessToken.find(match[1]));
      if (!accessToken || accessToken.isExpired || !accessToken.accountId) throw new ApiError('auth.invalid_token');
      const user = await findUserById(context.db, accessToken.accountId);
      if (!user) throw new ApiError('auth.invalid_token');
      reply.header('cache-control', 'no-store');
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
