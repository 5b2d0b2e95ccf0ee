import { afterEach, describe, expect, it } from 'vitest';
import { openLoginScreen, TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

/** The Set-Cookie line that started the sign-in transaction. */
async function transactionCookieLine(server: TestApp): Promise<string> {
  const browser = new TestBrowser(server.app);
  const query = new URLSearchParams({ client_id: server.confidentialClient.clientId, redirect_uri: server.confidentialClient.redirectUri, state: 's', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' });
  const authorize = await browser.request('GET', `/api/sso/v3/authorize?${query}`);
  const provider = await server.app.inject({ method: 'GET', url: new URL(authorize.json().redirect_to).pathname + new URL(authorize.json().redirect_to).search });
  const lines = ([] as string[]).concat(provider.headers['set-cookie'] ?? []);
  const line = lines.find((candidate) => /^(__Host-)?sso_tx=/.test(candidate));
  if (!line) throw new Error(`no transaction cookie in ${lines.join(' | ')}`);
  return line;
}

describe('the sign-in transaction cookie', () => {
  let server: TestApp | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('is HttpOnly, SameSite=Lax and scoped to the whole site over http (development)', async () => {
    server = await startTestApp();
    const line = await transactionCookieLine(server);
    expect(line).toMatch(/^sso_tx=[A-Za-z0-9_-]{43};/);
    expect(line).toMatch(/; path=\//i);
    expect(line).toMatch(/; httponly/i);
    expect(line).toMatch(/; samesite=lax/i);
  });

  it('carries the __Host- prefix and Secure over https', async () => {
    server = await startTestApp({ env: { PUBLIC_URL: 'https://sso.example.com' } });
    const line = await transactionCookieLine(server);
    expect(line).toMatch(/^__Host-sso_tx=/);
    expect(line).toMatch(/; secure/i);
    expect(line).not.toMatch(/; domain=/i);
    const browser = new TestBrowser(server.app);
    await expect(openLoginScreen(browser, server.publicClient)).resolves.toMatchObject({ interaction: expect.any(String) });
  });
});

describe('health', () => {
  it('answers 503 when the database does not answer', async () => {
    const server = await startTestApp();
    await server.db.close();
    const response = await server.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'unavailable', database: 'down' });
    await server.app.close();
  });
});
