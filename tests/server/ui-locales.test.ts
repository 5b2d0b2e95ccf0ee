/** A client app's `ui_locales` reaches the login screen, and discovery lists the languages the screens speak. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

describe('ui_locales', () => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp();
  });
  afterAll(async () => {
    await server.close();
  });

  it('lists the screens\' languages as ui_locales_supported', async () => {
    const discovery = (await server.app.inject({ method: 'GET', url: '/.well-known/openid-configuration' })).json<{ ui_locales_supported: string[] }>();
    expect(discovery.ui_locales_supported).toEqual(['en', 'de']);
  });

  it('hands the app\'s ui_locales on to the login screen', async () => {
    const query = new URLSearchParams({
      client_id: server.publicClient.clientId,
      redirect_uri: server.publicClient.redirectUri,
      response_type: 'code',
      scope: 'openid',
      state: 's',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      ui_locales: 'de-AT en',
    });
    const toLogin = await new TestBrowser(server.app).request('GET', `/oidc/auth?${query}`);
    const login = new URL(String(toLogin.headers.location), 'http://localhost:8080');
    expect(login.pathname).toBe('/auth/login');
    expect(login.searchParams.get('ui_locales')).toBe('de-AT en');
  });
});
