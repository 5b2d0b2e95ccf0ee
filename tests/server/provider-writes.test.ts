import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { TestBrowser, exchangeCode, openLoginScreen, signIn, submitLogin } from './support/sign-in.ts';
import { testBackends, type TestBackend } from './support/databases.ts';
import { startTestApp } from './support/test-app.ts';

/** `backend`, whose writes to the provider's table fail as a database gone away does while `down.writes` is set. */
function backendLosingWrites(backend: TestBackend, down: { writes: boolean }): TestBackend {
  return {
    name: backend.name,
    async open(): Promise<Database> {
      const db = await backend.open();
      return {
        ...db,
        query: (sql, params) => {
          // Any statement that writes the provider's table, alone or inside a `with` (a token spent as its tokens are stored).
          if (down.writes && /\b(insert into|delete from|update) oidc_payloads\b/.test(sql)) {
            return Promise.reject(new Error('Connection terminated unexpectedly'));
          }
          return db.query(sql, params);
        },
      };
    },
  };
}

describe.each(testBackends().filter((backend) => backend.name !== 'pglite-disk'))('the provider answers only with what it stored, on $name', (backend) => {
  const down = { writes: false };
  let server: Awaited<ReturnType<typeof startTestApp>>;

  beforeAll(async () => {
    server = await startTestApp({ backend: backendLosingWrites(backend, down), env: { MFA_REQUIRED: 'false' } });
  });
  afterAll(async () => {
    down.writes = false;
    await server.close();
  });

  const accessTokens = async () => (await server.db.query<{ count: number }>("select count(*)::int as count from oidc_payloads where model = 'AccessToken'")).rows[0]!.count;

  it('answers the token request 503, with no tokens, when the tokens cannot be stored', async () => {
    const browser = new TestBrowser(server.app);
    const { callback, codeVerifier } = await signIn(browser, { ...server.publicClient, email: server.user.email, password: server.user.password });
    const before = await accessTokens();
    down.writes = true;
    const answer = await exchangeCode(server.app, server.publicClient, callback, codeVerifier).finally(() => {
      down.writes = false;
    });
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBeDefined();
    expect(answer.body).not.toContain('access_token');
    expect(await accessTokens()).toBe(before);
  });

  it('answers the resume 503, with no code and no session cookie, when the sign-in cannot be stored; trying again completes it', async () => {
    const browser = new TestBrowser(server.app);
    await openLoginScreen(browser, server.publicClient);
    const login = await submitLogin(browser, server.user.email, server.user.password);
    const resume = login.json<{ redirect_to: string }>().redirect_to;
    down.writes = true;
    const failed = await browser.request('GET', resume).finally(() => {
      down.writes = false;
    });
    expect(failed.statusCode).toBe(503);
    expect(failed.headers.location).toBeUndefined();
    expect(String(failed.headers['set-cookie'] ?? '')).not.toContain('_session=');
    expect(failed.body).not.toContain('code=');

    // Nothing of the resume was stored, the interaction included, so the browser's retry finishes the sign-in.
    const retried = await browser.request('GET', resume);
    const callback = new URL(String(retried.headers.location), 'http://localhost:8080');
    expect(callback.href.startsWith(server.publicClient.redirectUri)).toBe(true);
    expect(callback.searchParams.get('code')).toBeTruthy();
  });
});
