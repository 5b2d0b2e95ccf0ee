/**
 * The refresh-token requests the bench times, as a client app makes them: each login's code redeemed for tokens
 * (untimed), then each refresh token rotated round after round (every answer's new refresh token is the next
 * request's), several chains at a time, through `inject` like the logins. Rotation and reuse detection are on.
 */
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../tests/server/support/test-app.ts';
import type { RoundTripCounter } from './counting-database.ts';

/** A finished login: the client's callback with its code, and the PKCE verifier of its authorization request. */
export interface FinishedLogin {
  callback: URL;
  codeVerifier: string;
}

/** Database round trips of one request at each of the token endpoint and userinfo. */
export interface TokenRoundTrips {
  codeExchange: number;
  userinfo: number;
  refresh: number;
}

function tokenRequest(server: TestApp, form: Record<string, string>): Promise<LightMyRequestResponse> {
  return server.app.inject({
    method: 'POST',
    url: '/oidc/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ client_id: server.publicClient.clientId, ...form }).toString(),
  });
}

function tokensOf(response: LightMyRequestResponse, what: string): { access_token: string; refresh_token: string } {
  if (response.statusCode !== 200) throw new Error(`${what} answered ${response.statusCode}: ${response.body}`);
  return response.json<{ access_token: string; refresh_token: string }>();
}

const exchange = (server: TestApp, login: FinishedLogin) =>
  tokenRequest(server, { grant_type: 'authorization_code', code: login.callback.searchParams.get('code') ?? '', redirect_uri: server.publicClient.redirectUri, code_verifier: login.codeVerifier });

const refresh = (server: TestApp, refreshToken: string) => tokenRequest(server, { grant_type: 'refresh_token', refresh_token: refreshToken });

/** Redeems every login's code (untimed); answers the refresh tokens, one per login. */
export async function redeemCodes(server: TestApp, logins: readonly FinishedLogin[]): Promise<string[]> {
  const tokens: string[] = [];
  for (const login of logins) tokens.push(tokensOf(await exchange(server, login), 'the code exchange').refresh_token);
  return tokens;
}

/** Rotates each refresh token `rounds` times, `concurrency` chains at a time; answers refresh requests per second. */
export async function timeRefreshes(server: TestApp, refreshTokens: readonly string[], rounds: number, concurrency: number): Promise<number> {
  const chains = [...refreshTokens];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let token = chains.shift(); token !== undefined; token = chains.shift()) {
        for (let round = 0; round < rounds; round += 1) token = tokensOf(await refresh(server, token), 'a refresh').refresh_token;
      }
    }),
  );
  return (refreshTokens.length * rounds) / ((performance.now() - started) / 1000);
}

/** The statements one code exchange, one /oidc/me and one refresh send, each counted within its own request. */
export async function countTokenTrips(server: TestApp, counter: RoundTripCounter, login: FinishedLogin): Promise<TokenRoundTrips> {
  const exchanged = await counter.within(() => exchange(server, login));
  const tokens = tokensOf(exchanged.result, 'the code exchange');
  const userinfo = await counter.within(() => server.app.inject({ method: 'GET', url: '/oidc/me', headers: { authorization: `Bearer ${tokens.access_token}` } }));
  if (userinfo.result.statusCode !== 200) throw new Error(`/oidc/me answered ${userinfo.result.statusCode}`);
  const refreshed = await counter.within(() => refresh(server, tokens.refresh_token));
  tokensOf(refreshed.result, 'a refresh');
  return { codeExchange: exchanged.trips, userinfo: userinfo.trips, refresh: refreshed.trips };
}
