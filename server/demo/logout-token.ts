import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import type * as oidc from 'openid-client';

/** The event a logout token must carry (OpenID Connect Back-Channel Logout 1.0, section 2.4). */
const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** How old a logout token may be when it arrives. */
const LOGOUT_TOKEN_MAX_AGE = '5 minutes';

/** What a valid logout token says: which app's session (by `sid`) of which user ended. */
export interface LogoutNotice {
  clientId: string;
  sid: string;
  sub: string | undefined;
}

/** Thrown when a logout token fails validation; the endpoint answers 400. */
export class InvalidLogoutTokenError extends Error {
  override readonly name = 'InvalidLogoutTokenError';
}

/**
 * Validates a logout token as section 2.6 of the specification asks: signed by the issuer's key (RS256, PS256 or ES256), `typ`
 * logout+jwt, issued by the issuer for one of `clientIds`, recent, carrying the back-channel logout event and a
 * `sid`, and no `nonce`.
 */
export async function verifyLogoutToken(
  token: string,
  expected: { issuer: string; clientIds: readonly string[]; jwksUri: string; fetch: oidc.CustomFetch | typeof fetch },
): Promise<LogoutNotice> {
  try {
    const response = await (expected.fetch as oidc.CustomFetch)(expected.jwksUri, {
      method: 'GET',
      headers: { accept: 'application/json' },
      body: undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(5000),
    });
    const jwks = createLocalJWKSet((await response.json()) as JSONWebKeySet);
    const { payload } = await jwtVerify(token, jwks, {
      issuer: expected.issuer,
      audience: [...expected.clientIds],
      typ: 'logout+jwt',
      algorithms: ['RS256', 'PS256', 'ES256'],
      maxTokenAge: LOGOUT_TOKEN_MAX_AGE,
    });
    const events = payload.events as Record<string, unknown> | undefined;
    if (typeof events !== 'object' || events === null || !(BACKCHANNEL_LOGOUT_EVENT in events)) throw new Error('no back-channel logout event');
    if ('nonce' in payload) throw new Error('a logout token must not carry a nonce');
    if (typeof payload.sid !== 'string') throw new Error('no sid');
    const clientId = [payload.aud].flat().find((audience) => audience !== undefined && expected.clientIds.includes(audience));
    if (!clientId) throw new Error('not for this app');
    return { clientId, sid: payload.sid, sub: payload.sub };
  } catch (error) {
    throw new InvalidLogoutTokenError(error instanceof Error ? error.message : String(error));
  }
}
