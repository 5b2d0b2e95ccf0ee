import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIX } from '../../contract/product.ts';
import { findAccountClaims } from '../store/account-claims.ts';
import type { Services } from '../services.ts';
import { ApiError } from '../errors.ts';
import { checkDpopProof } from '../oidc/dpop-proof.ts';
import { createDpopNonces, type DpopNonces } from '../oidc/dpop-nonces.ts';
import { findLiveAccessToken, type LiveAccessToken } from '../oidc/live-access-token.ts';
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

type Context = Pick<Services, 'db' | 'provider' | 'config' | 'box' | 'clock'>;

/**
 * The access token of the request, as `/oidc/me` would take it: a bearer token, or a DPoP-bound one with a valid
 * proof for this request (RFC 9449 §7). A refusal says why in `WWW-Authenticate`, with a fresh `DPoP-Nonce` when the
 * proof needs one.
 */
async function requestToken(context: Context, nonces: DpopNonces, request: FastifyRequest, reply: FastifyReply): Promise<LiveAccessToken> {
  const match = /^(Bearer|DPoP) ([A-Za-z0-9._~+/-]+=*)$/i.exec(request.headers.authorization ?? '');
  const scheme = match?.[1]?.toLowerCase();
  const value = match?.[2];
  const token = value && (await findLiveAccessToken(context.provider, value));
  if (!value || !token) throw new ApiError('auth.invalid_token');
  if (token.jkt === undefined) {
    if (scheme !== 'bearer') throw new ApiError('auth.invalid_token');
    return token;
  }
  const proof = request.headers.dpop;
  const refusal =
    scheme === 'dpop'
      ? await checkDpopProof(
          { provider: context.provider, nonces, nowSeconds: Math.floor(context.clock() / 1000) },
          { proof: typeof proof === 'string' ? proof : undefined, method: request.method, url: new URL(`${API_PREFIX}/userinfo`, context.config.publicUrl).href, accessToken: value, jkt: token.jkt, clientId: token.clientId },
        )
      : ({ error: 'invalid_token', description: 'the token is DPoP-bound: send it with the DPoP scheme and a proof' } as const);
  if (refusal === undefined) return token;
  reply.header('www-authenticate', `DPoP error="${refusal.error}", error_description="${refusal.description}", algs="ES256 PS256 EdDSA"`);
  if ('nonce' in refusal) reply.header('dpop-nonce', refusal.nonce);
  throw new ApiError('auth.invalid_token');
}

/** `GET userinfo`: the signed-in user's profile for a valid access token (the same tokens, and checks, as OIDC userinfo). */
export function userinfoRoutes(context: Context) {
  // Made at the first request, so the route table can be read (the OpenAPI document) without the services behind it.
  let nonces: DpopNonces | undefined;
  return async (app: FastifyInstance) => {
    app.get('/userinfo', { schema: { response: responses(USERINFO_ANSWER) } }, async (request, reply) => {
      nonces ??= createDpopNonces(context.box);
      const accessToken = await requestToken(context, nonces, request, reply);
      const user = await findAccountClaims(context.db, accessToken.accountId, undefined);
      if (!user) throw new ApiError('auth.invalid_token');
      return {
        sub: user.id,
        email: user.email,
        email_verified: user.emailVerified,
        given_name: user.firstName,
        family_name: user.lastName,
        name: `${user.firstName} ${user.lastName}`.trim(),
      };
    });
  };
}
