import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.ts';

const ASSETS = path.resolve('dist/web/assets');

describe('serving the web app under /auth/', () => {
  let server: TestApp;
  beforeAll(async () => {
    if (!fs.existsSync(ASSETS)) throw new Error('dist/web is missing: run `npm run build` first (npm test does)');
    server = await startTestApp();
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each(['/auth/login?client_id=x', '/auth/login?interaction=abc', '/auth/account', '/auth/mfa/totp', '/auth/forgot-password', '/auth/change-password/j%E2%80%A2%E2%80%A2%E2%80%A2%40example.com', '/auth/no/such/page'])(
    'answers the client route %s with the app page, uncached, under a strict CSP',
    async (url) => {
      const response = await server.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('<div id="root">');
      expect(response.headers['cache-control']).toBe('no-cache');
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/unsafe-(eval|inline)/);
      expect(response.headers).toMatchObject({
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
        'cross-origin-opener-policy': 'same-origin',
      });
    },
  );

  it('answers the login address with the login screen already drawn, so it paints before the scripts run', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/auth/login?client_id=x' });
    expect(response.body).toContain('<title>Log In</title>');
    expect(response.body).toMatch(/<div id="root"><div class="page">.*<h1 class="headline">Log in to proceed<\/h1>/s);
  });

  it('allows the login page its inlined stylesheet by hash, and no other inline style', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/auth/login?client_id=x' });
    const style = /<style>([\s\S]*?)<\/style>/.exec(response.body)?.[1];
    expect(style).toBeDefined();
    const hash = crypto.createHash('sha256').update(style ?? '').digest('base64');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain(`style-src 'self' 'sha256-${hash}'`);
    expect(csp).not.toMatch(/unsafe-(eval|inline)/);
    const other = await server.app.inject({ method: 'GET', url: '/auth/register' });
    expect(String(other.headers['content-security-policy'])).toContain("style-src 'self';");
  });

  it.each(['/auth/register', '/auth/no/such/page', '/auth/login/extra'])('answers %s with the empty page, not the login screen', async (url) => {
    const response = await server.app.inject({ method: 'GET', url });
    expect(response.body).toContain('<div id="root"></div>');
  });

  it('does not serve the prerendered page as a file of its own', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/auth/login.html' });
    expect(response.body).not.toContain('Log in to proceed');
  });

  it('serves hashed assets with long-lived immutable caching', async () => {
    const asset = fs.readdirSync(ASSETS).find((name) => name.endsWith('.js'));
    const response = await server.app.inject({ method: 'GET', url: `/auth/assets/${asset}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers a missing asset with a 404, not the app page', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/auth/assets/missing-0000.js' });
    expect(response.statusCode).toBe(404);
  });

  it.each(['/nothing-here', '/favicon-old.png', '/admin/page'])('answers a browser asking for %s outside /auth/ with the HTML "Page not found" page and a 404', async (url) => {
    const response = await server.app.inject({ method: 'GET', url, headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('<div id="root">');
    expect(String(response.headers['content-security-policy'])).toContain("script-src 'self'");
  });

  it('keeps the JSON 404 for API clients and anything under the API prefix, even from a browser', async () => {
    const api = await server.app.inject({ method: 'GET', url: '/nothing-here', headers: { accept: 'application/json' } });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ error_code: 'request.not_found' });
    const underApi = await server.app.inject({ method: 'GET', url: '/api/sso/v3/nothing', headers: { accept: 'text/html' } });
    expect(underApi.statusCode).toBe(404);
    expect(underApi.headers['content-type']).toMatch(/json/);
  });

  it.each([
    ['/', '/auth/account'],
    ['/auth', '/auth/account'],
    ['/auth/', '/auth/account'],
    ['/auth/login', '/auth/account'],
    ['/auth/login?username=a%40example.com', '/auth/account'],
    ['/auth?client_id=x&state=y', '/auth/login?client_id=x&state=y'],
  ])('redirects %s to %s', async (url, location) => {
    const response = await server.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(location);
  });
});

describe('the page policy with browser services on', () => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp({ env: { GTM_ID: 'GTM-AB12CD', BOT_CHECK_SECRET: 'secret' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('allows exactly the tag manager and the bot-check widget by name, still with nothing inline', async () => {
    const csp = String((await server.app.inject({ method: 'GET', url: '/auth/login?client_id=x' })).headers['content-security-policy']);
    expect(csp).toContain("script-src 'self' https://www.googletagmanager.com https://challenges.cloudflare.com");
    expect(csp).toContain('frame-src https://challenges.cloudflare.com');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-(eval|inline)/);
  });
});
