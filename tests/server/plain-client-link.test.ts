import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addClient } from '../../server/admin/operations.ts';
import { startTestApp, TEST_DEMO_URL, TEST_PUBLIC_URL, type TestApp } from './support/test-app.ts';

/**
 * A link that names a client app but carries no authorization request (`/auth/register?client_id=X`) goes to the app's
 * initiate_login_uri (OpenID Connect third-party-initiated login); an app with none answers client.open_app_first.
 */
describe('a plain link naming a client app', () => {
  let server: TestApp;
  beforeAll(async () => {
    if (!fs.existsSync(path.resolve('dist/web/index.html'))) throw new Error('dist/web is missing: run `npm run build` first (npm test does)');
    server = await startTestApp();
    await addClient(server.context, { clientId: 'ledger', name: 'Ledger', redirectUris: ['https://ledger.example/callback'], isPublic: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  const authorize = (query: string) => server.app.inject({ method: 'GET', url: `/api/sso/v3/authorize?${query}` });

  it('for registration goes to the app\'s sign-in start with iss and prompt=create', async () => {
    const response = await authorize('client_id=sso-dashboard&prompt=create');
    expect(response.statusCode).toBe(200);
    const target = new URL(response.json<{ redirect_to: string }>().redirect_to);
    expect(`${target.origin}${target.pathname}`).toBe(`${TEST_DEMO_URL}/demo/login`);
    expect(target.searchParams.get('client')).toBe('sso-dashboard');
    expect(target.searchParams.get('iss')).toBe(TEST_PUBLIC_URL);
    expect(target.searchParams.get('prompt')).toBe('create');
    expect(target.searchParams.has('login_hint')).toBe(false);
  });

  it('for login carries the email as login_hint and asks for no registration', async () => {
    const response = await authorize('client_id=sso-account&username=ada%40example.com');
    const target = new URL(response.json<{ redirect_to: string }>().redirect_to);
    expect(target.searchParams.get('login_hint')).toBe('ada@example.com');
    expect(target.searchParams.has('prompt')).toBe(false);
  });

  it('to the login page is sent to the app by the page route itself, before the web app loads', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/auth/login?client_id=sso-dashboard' });
    expect(response.statusCode).toBe(303);
    expect(String(response.headers.location)).toBe(`${TEST_DEMO_URL}/demo/login?client=sso-dashboard&iss=${encodeURIComponent(TEST_PUBLIC_URL)}`);
  });

  it('to an app with no sign-in start answers client.open_app_first in plain words', async () => {
    const response = await authorize('client_id=ledger&prompt=create');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error_code: 'client.open_app_first' });
    expect(response.json<{ error_message: string }>().error_message).toMatch(/^This link cannot start a sign-in by itself\./);
    const status = await server.app.inject({ method: 'GET', url: '/api/sso/v3/auth/sign-in/status?client_id=ledger' });
    expect(status.json()).toMatchObject({ parameters: { client_name: 'Ledger', app_url: 'https://ledger.example/' } });
  });

  it('to an unknown app says the app is not registered', async () => {
    const response = await authorize('client_id=nobody');
    expect(response.json()).toMatchObject({ error_code: 'client.unknown' });
  });

  it('is not one when it carries any part of a request: the request is checked as before', async () => {
    for (const query of ['client_id=sso-dashboard&redirect_uri=https%3A%2F%2Fevil.example%2Fcb', 'client_id=sso-dashboard&state=s1', 'client_id=sso-dashboard&response_type=code']) {
      const response = await authorize(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json<{ error_code: string }>().error_code, query).toMatch(/^client\.(redirect_uri_mismatch|pkce_required)$/);
    }
  });
});
