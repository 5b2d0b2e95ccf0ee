import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLoginScreen, signIn, submitLogin, TestBrowser } from './support/sign-in.ts';
import { startTestApp, TEST_DEMO_URL, type TestApp } from './support/test-app.ts';

const API = '/api/sso/v3';

describe('signing in through the step API', () => {
  let server: TestApp;
  beforeAll(async () => {
    // Not about the second factor: these users sign in on their password alone (MFA is tested in tests/server/mfa-*.test.ts).
    server = await startTestApp({ env: { MFA_REQUIRED: 'false' } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('sends a direct link with client_id, redirect_uri and state through the provider to the login screen', async () => {
    const browser = new TestBrowser(server.app);
    const { interaction } = await openLoginScreen(browser, server.publicClient);
    expect(browser.jar.names()).toContain('sso_tx');
    const screen = await browser.request('GET', `${API}/authorize?interaction=${interaction}&client_id=${server.publicClient.clientId}`);
    expect(screen.statusCode).toBe(200);
    // resumed: the answer says where the sign-in stands, not the outcome of a submit (27.9).
    expect(screen.json()).toEqual({ challenge: 'LOGIN_REQUIRED', parameters: { client_id: 'sso-account', client_name: 'Account Area', resumed: true } });
  });

  it('returns the browser to the client with a code and the state unchanged after a correct password', async () => {
    const browser = new TestBrowser(server.app);
    const state = 'opaque/state with spaces & symbols';
    const { callback } = await signIn(browser, { ...server.publicClient, state, email: server.user.email, password: server.user.password });
    expect(callback.origin + callback.pathname).toBe(server.publicClient.redirectUri);
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  });

  it('answers a wrong password and an unknown email with the same status and body', async () => {
    const wrongPassword = new TestBrowser(server.app);
    await openLoginScreen(wrongPassword, server.publicClient);
    const first = await submitLogin(wrongPassword, server.user.email, 'not-the-password');
    const unknownUser = new TestBrowser(server.app);
    await openLoginScreen(unknownUser, server.publicClient);
    const second = await submitLogin(unknownUser, 'nobody@example.com', 'not-the-password');
    expect(first.statusCode).toBe(401);
    expect(second.statusCode).toBe(first.statusCode);
    expect(second.json()).toEqual(first.json());
    expect(first.json()).toEqual({ error_code: 'auth.invalid_credentials', error_message: 'Incorrect email or password.' });
  });

  it('refuses a captured encrypted password when it is sent again', async () => {
    const browser = new TestBrowser(server.app);
    await openLoginScreen(browser, server.publicClient);
    const password = await browser.encrypt('not-the-password');
    const first = await browser.request('POST', `${API}/auth/login`, { email: server.user.email, password });
    const replay = await browser.request('POST', `${API}/auth/login`, { email: server.user.email, password });
    expect(first.json().error_code).toBe('auth.invalid_credentials');
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error_code).toBe('credentials.unreadable');
  });

  it('refuses a password sent in clear text', async () => {
    const browser = new TestBrowser(server.app);
    await openLoginScreen(browser, server.publicClient);
    const response = await browser.request('POST', `${API}/auth/login`, { email: server.user.email, password: server.user.password });
    expect(response.statusCode).toBe(400);
    expect(response.json().error_code).toBe('credentials.unreadable');
  });

  it("validates the payload against the step's schema, in the spec's words", async () => {
    const browser = new TestBrowser(server.app);
    await openLoginScreen(browser, server.publicClient);
    const missingEmail = await browser.request('POST', `${API}/auth/login`, { password: await browser.encrypt('x') });
    expect(missingEmail.statusCode).toBe(400);
    expect(missingEmail.json()).toEqual({
      error_code: 'request.invalid',
      error_message: "Please enter your email address e.g, 'name@example.com'",
      error_params: { reason: 'validation.email.required', field: 'email' },
    });
    const badEmail = await browser.request('POST', `${API}/auth/login`, { email: 'not-an-email', password: await browser.encrypt('x') });
    expect(badEmail.json().error_message).toBe("Please enter valid email address. e.g 'name@example.com'");
  });

  it('refuses a login step when the browser has no sign-in in progress', async () => {
    const browser = new TestBrowser(server.app);
    const response = await browser.request('POST', `${API}/auth/login`, { email: server.user.email, password: 'x' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error_code).toBe('transaction.missing');
  });

  it('finishes a sign-in once when 50 correct submits race on one transaction', async () => {
    const browser = new TestBrowser(server.app);
    await openLoginScreen(browser, server.publicClient);
    const passwords = await Promise.all(Array.from({ length: 50 }, () => browser.encrypt(server.user.password)));
    const responses = await Promise.all(
      passwords.map((password) => browser.request('POST', `${API}/auth/login`, { email: server.user.email, password })),
    );
    expect(responses.filter((response) => response.statusCode === 200)).toHaveLength(1);
    // The losers either found the sign-in already finished, or were held back by the guessing throttle, which
    // counts every attempt before it is checked.
    const refusals = new Set(responses.filter((response) => response.statusCode !== 200).map((response) => response.json().error_code));
    expect([...refusals].every((code) => ['transaction.missing', 'auth.invalid_credentials', 'auth.too_many_attempts'].includes(code))).toBe(true);
  });

  it('refuses to repeat the login step once it has been passed', async () => {
    const browser = new TestBrowser(server.app);
    await openLoginScreen(browser, server.publicClient);
    const cookie = browser.jar.header('/api/sso/v3/auth/login');
    expect((await submitLogin(browser, server.user.email, server.user.password)).statusCode).toBe(200);
    const again = await server.app.inject({
      method: 'POST',
      url: `${API}/auth/login`,
      headers: { cookie, 'content-type': 'application/json' },
      payload: JSON.stringify({ email: server.user.email, password: await browser.encrypt(server.user.password) }),
    });
    expect(again.statusCode).toBe(401);
    expect(again.json().error_code).toBe('transaction.missing');
  });

  it('answers an interaction that is not the browser\'s own as a sign-in that is no longer open, which the app shows as ended', async () => {
    const browser = new TestBrowser(server.app);
    await openLoginScreen(browser, server.publicClient);
    const response = await browser.request('GET', `${API}/authorize?interaction=someone-elses-uid`);
    expect(response.statusCode).toBe(401);
    expect(response.json().error_code).toBe('transaction.missing');
  });
});

describe('checking the client app before any redirect', () => {
  let server: TestApp;
  beforeAll(async () => {
    // Not about the second factor: these users sign in on their password alone (MFA is tested in tests/server/mfa-*.test.ts).
    server = await startTestApp({ env: { MFA_REQUIRED: 'false' } });
  });
  afterAll(async () => {
    await server.close();
  });

  const authorize = (query: Record<string, string>) => server.app.inject({ method: 'GET', url: `${API}/authorize?${new URLSearchParams(query)}` });
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

  it.each([
    ['an unknown client', { client_id: 'nobody', redirect_uri: `${TEST_DEMO_URL}/demo/auth/callback` }, 'client.unknown'],
    ['no client at all', {}, 'client.missing'],
    ['a redirect_uri that only starts like a registered one', { client_id: 'sso-dashboard', redirect_uri: `${TEST_DEMO_URL}/demo/auth/callback/../../evil` }, 'client.redirect_uri_mismatch'],
    ['a redirect_uri with an extra query', { client_id: 'sso-dashboard', redirect_uri: `${TEST_DEMO_URL}/demo/auth/callback?x=1` }, 'client.redirect_uri_mismatch'],
    ['a public client without PKCE', { client_id: 'sso-account', redirect_uri: `${TEST_DEMO_URL}/demo/user-management/auth/callback` }, 'client.pkce_required'],
    ['PKCE with the plain method', { client_id: 'sso-account', redirect_uri: `${TEST_DEMO_URL}/demo/user-management/auth/callback`, code_challenge: challenge, code_challenge_method: 'plain' }, 'client.pkce_required'],
  ])('answers %s with an error and no redirect', async (_case, query, code) => {
    const response = await authorize(query);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error_code: code });
    expect(response.json().redirect_to).toBeUndefined();
  });

  it('carries a direct link\'s username through the provider (as login_hint) back to the login screen', async () => {
    const response = await authorize({ client_id: 'sso-dashboard', redirect_uri: `${TEST_DEMO_URL}/demo/auth/callback`, state: 's', username: 'ada@example.com', code_challenge: challenge, code_challenge_method: 'S256' });
    const toProvider = new URL(response.json().redirect_to);
    expect(toProvider.searchParams.get('login_hint')).toBe('ada@example.com');
    const provider = await server.app.inject({ method: 'GET', url: toProvider.pathname + toProvider.search });
    const loginScreen = new URL(String(provider.headers.location), 'http://localhost:8080');
    expect(loginScreen.pathname).toBe('/auth/login');
    expect(Object.fromEntries(loginScreen.searchParams)).toMatchObject({ client_id: 'sso-dashboard', state: 's', username: 'ada@example.com' });
  });

  it('refuses a confidential client\'s link without PKCE, as every client must use it (RFC 9700 §2.1.1)', async () => {
    const response = await authorize({ client_id: 'sso-dashboard', redirect_uri: `${TEST_DEMO_URL}/demo/auth/callback`, state: 's' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error_code: 'client.pkce_required' });
    const withPkce = await authorize({ client_id: 'sso-dashboard', redirect_uri: `${TEST_DEMO_URL}/demo/auth/callback`, state: 's', code_challenge: challenge, code_challenge_method: 'S256' });
    expect(new URL(withPkce.json().redirect_to).pathname).toBe('/oidc/auth');
  });

  it('tells a screen which app the user is signing in to', async () => {
    const response = await server.app.inject({ method: 'GET', url: `${API}/clients/sso-dashboard` });
    expect(response.json()).toEqual({ client_id: 'sso-dashboard', name: 'Dashboard', client_name: 'Dashboard' });
    const unknown = await server.app.inject({ method: 'GET', url: `${API}/clients/nobody` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error_code: 'client.not_found', error_message: 'Failed to fetch client information' });
  });
});
