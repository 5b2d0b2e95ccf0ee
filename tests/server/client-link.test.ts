import fs from 'node:fs';
import path from 'node:path';
import { calculatePKCECodeChallenge, randomPKCECodeVerifier } from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

/** A client's link to the login screen, as the app would build it. */
async function clientLink(server: TestApp, overrides: Record<string, string> = {}): Promise<string> {
  const query = new URLSearchParams({
    client_id: server.publicClient.clientId,
    redirect_uri: server.publicClient.redirectUri,
    state: 'state-1',
    code_challenge: await calculatePKCECodeChallenge(randomPKCECodeVerifier()),
    code_challenge_method: 'S256',
    ...overrides,
  });
  return `/auth/login?${query}`;
}

/** Follows redirects from `url` as a browser does; answers every address visited and the last response. */
async function follow(browser: TestBrowser, url: string) {
  const visited = [url];
  let response = await browser.request('GET', url);
  while (response.statusCode >= 300 && response.statusCode < 400 && visited.length < 6) {
    const next = new URL(String(response.headers.location), 'http://localhost:8080');
    visited.push(`${next.pathname}${next.search}`);
    response = await browser.request('GET', `${next.pathname}${next.search}`);
  }
  return { visited, response };
}

describe("a client's link to the login screen", () => {
  let server: TestApp;
  beforeAll(async () => {
    if (!fs.existsSync(path.resolve('dist/web/index.html'))) throw new Error('dist/web is missing: run `npm run build` first (npm test does)');
    server = await startTestApp();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('loads the web app once: the server sends it into the provider, which opens the login screen with its interaction', async () => {
    const browser = new TestBrowser(server.app);
    const { visited, response } = await follow(browser, await clientLink(server, { username: 'ada@example.com' }));
    expect(visited.map((url) => url.split('?')[0])).toEqual(['/auth/login', '/oidc/auth', '/auth/login']);
    const landed = new URL(visited.at(-1)!, 'http://localhost:8080');
    expect(landed.searchParams.get('interaction')).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(landed.searchParams.get('username')).toBe('ada@example.com');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<title>Log In</title>');
    const answer = await browser.request('GET', `/api/sso/v3/authorize?${landed.searchParams}`);
    expect(answer.json()).toMatchObject({ challenge: 'LOGIN_REQUIRED', parameters: { client_id: server.publicClient.clientId } });
  });

  it.each([
    ['an unknown client', { client_id: 'nobody' }],
    ['a redirect_uri the client never registered', { redirect_uri: 'https://evil.example/cb' }],
    ['a redirect_uri that only starts like a registered one', { redirect_uri: 'http://localhost:8080/account/callback.evil' }],
    ['a public client without PKCE', { code_challenge_method: 'plain' }],
    ['a malformed code_challenge', { code_challenge: 'short' }],
  ])('with %s is answered with the app page, which shows the error, never a redirect', async (_case, overrides) => {
    const response = await server.app.inject({ method: 'GET', url: await clientLink(server, overrides) });
    expect(response.statusCode).toBe(200);
    expect(response.headers.location).toBeUndefined();
    expect(response.body).toContain('<div id="root">');
  });

  it('with an invitation still loads the app, which checks the invitation first', async () => {
    const response = await server.app.inject({ method: 'GET', url: await clientLink(server, { invitation: 'a'.repeat(30) }) });
    expect(response.statusCode).toBe(200);
    expect(response.headers.location).toBeUndefined();
  });
});
