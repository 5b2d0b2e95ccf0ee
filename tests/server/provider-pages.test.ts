/**
 * The provider's answers carry the app's header policy, and the pages it shows (sign-out, errors, the post-logout
 * page) are ours: our CSP, no inline script, never framed. Sign-out without a session shows the signed-out page at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { signIn, TestBrowser } from './support/sign-in.ts';

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>/i;

function expectAppHeaders(headers: Record<string, unknown>): void {
  expect(headers).toMatchObject({
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'x-frame-options': 'DENY',
    'strict-transport-security': 'max-age=31536000; includeSubDomains',
  });
  expect(String(headers['content-security-policy'])).toContain("frame-ancestors 'none'");
}

function expectOurPage(response: { body: string; headers: Record<string, unknown> }): void {
  expect(response.body).not.toMatch(INLINE_SCRIPT);
  expect(String(response.headers['content-security-policy'])).not.toMatch(/script-src|unsafe-inline/);
  expect(response.body).toContain('<main>');
}

describe('the provider under the app header policy', () => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp({ env: { PUBLIC_URL: 'https://sso.example.com', MFA_REQUIRED: 'false' } });
  });
  afterAll(async () => {
    await server.close();
  });

  it.each([
    ['the discovery document', 'GET', '/.well-known/openid-configuration'],
    ['the key set', 'GET', '/oidc/jwks'],
    ['an authorization error page', 'GET', '/oidc/auth?client_id=nobody'],
    ['a token error', 'POST', '/oidc/token'],
    ['an unknown provider path', 'GET', '/oidc/nothing-here'],
  ] as const)('sends the app headers on %s', async (_case, method, url) => {
    const response = await server.app.inject({ method, url, headers: method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}, payload: method === 'POST' ? '' : undefined });
    expect(response.statusCode).toBeLessThan(500);
    expectAppHeaders(response.headers);
  });

  it('renders the error page as ours', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/oidc/auth?client_id=nobody' });
    expectOurPage(response);
  });

  it('signs out without a session on our signed-out page at once: nothing to confirm, no cookie set', async () => {
    const browser = new TestBrowser(server.app);
    const page = await browser.request('GET', '/oidc/session/end');
    expect(page.statusCode).toBe(200);
    expectAppHeaders(page.headers);
    expectOurPage(page);
    expect(page.body).toContain('Signed out');
    expect(page.headers['set-cookie']).toBeUndefined();
  });

  it('asks a signed-in user to confirm the sign-out on our page', async () => {
    const browser = new TestBrowser(server.app);
    await signIn(browser, { ...server.confidentialClient, email: server.user.email, password: server.user.password });
    const page = await browser.request('GET', '/oidc/session/end');
    expect(page.statusCode).toBe(200);
    expectAppHeaders(page.headers);
    expectOurPage(page);
    expect(page.body).toContain('Yes, sign me out');
  });
});
