import type { FastifyInstance } from 'fastify';
import { decodeJwt, type JWTPayload } from 'jose';
import { exchangeCode, type TestBrowser } from './sign-in.ts';

/** Follows the provider's redirects from `location` until the browser is sent to `redirectUri`; returns that URL. */
export async function followToClient(browser: TestBrowser, location: string, redirectUri: string): Promise<URL> {
  let next = location;
  for (let hop = 0; hop < 5 && !next.startsWith(redirectUri); hop += 1) {
    const response = await browser.request('GET', next);
    if (!response.headers.location) throw new Error(`expected a redirect from ${next}, got ${response.statusCode}: ${response.body.slice(0, 300)}`);
    next = new URL(String(response.headers.location), 'http://localhost:8080').href;
  }
  return new URL(next);
}

/** Redeems the callback's code as the public client and reads what the app learns: ID token claims and userinfo. */
export async function whatTheAppSees(
  app: FastifyInstance,
  client: { clientId: string; redirectUri: string },
  callback: URL,
  codeVerifier: string,
): Promise<{ idToken: JWTPayload; userinfo: Record<string, unknown> }> {
  const tokens = await exchangeCode(app, client, callback, codeVerifier);
  if (tokens.statusCode !== 200) throw new Error(`token endpoint answered ${tokens.statusCode}: ${tokens.body}`);
  const { id_token: idToken, access_token: accessToken } = tokens.json<{ id_token: string; access_token: string }>();
  const userinfo = await app.inject({ method: 'GET', url: '/oidc/me', headers: { authorization: `Bearer ${accessToken}` } });
  return { idToken: decodeJwt(idToken), userinfo: userinfo.json<Record<string, unknown>>() };
}
