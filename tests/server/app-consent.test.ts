/**
 * A client app that is not first-party asks the person to allow what it asks for, once: the answer is remembered per
 * app, revocable on the account page, asked again for more or with prompt=consent (never the password again), and
 * declining sends the app access_denied. First-party apps never ask.
 */
import { calculatePKCECodeChallenge, randomPKCECodeVerifier } from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addClient, addUser } from '../../server/admin/operations.ts';
import { LIMITS } from '../../server/limits.ts';
import { listSecurityEvents } from '../../server/store/security-events.ts';
import { totpCodeAt } from '../../server/mfa/totp.ts';
import { signInToAccountPage, type AccountPage } from './support/account.ts';
import { followToClient } from './support/client-return.ts';
import { fakeClock } from './support/fakes.ts';
import { API, answer, logIn, type StepAnswer } from './support/mfa.ts';
import { exchangeCode, TestBrowser } from './support/sign-in.ts';
import { startTestApp, TEST_PUBLIC_URL, type TestApp } from './support/test-app.ts';

const PARTNER = { clientId: 'partner-app', redirectUri: 'https://partner.example/callback' };

describe('consent to a client app that is not first-party', () => {
  const clock = fakeClock(Date.now());
  let server: TestApp;
  let users = 0;
  const tick = () => {
    clock.advance(LIMITS.TOTP_PERIOD + 1);
    return clock.now();
  };

  beforeAll(async () => {
    server = await startTestApp({ clock: clock.now });
    await addClient(server.context, { clientId: PARTNER.clientId, name: 'Partner Budgeting', redirectUris: [PARTNER.redirectUri], isPublic: true });
  }, 180_000);
  afterAll(async () => {
    await server.close();
  });

  /** A new user signed in to the account page (an authenticator app set up): a browser with a live provider session. */
  async function signedInUser(): Promise<AccountPage & { email: string; password: string }> {
    users += 1;
    const user = { email: `consent-${users}@example.com`, password: 'Consent-Passw0rd!' };
    await addUser({ db: server.db }, user);
    return { ...(await signInToAccountPage(server, user, tick)), ...user };
  }

  /** The partner app sends the browser to the provider; answers where the provider sends it, and the PKCE verifier. */
  async function authorize(browser: TestBrowser, scope: string, extra: Record<string, string> = {}): Promise<{ location: URL; verifier: string }> {
    const verifier = randomPKCECodeVerifier();
    const query = new URLSearchParams({
      client_id: PARTNER.clientId,
      redirect_uri: PARTNER.redirectUri,
      response_type: 'code',
      scope,
      state: 'partner-state',
      code_challenge: await calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      ...extra,
    });
    const response = await browser.request('GET', `/oidc/auth?${query}`);
    return { location: new URL(String(response.headers.location), TEST_PUBLIC_URL), verifier };
  }

  async function tokensFor(callback: URL, verifier: string) {
    const tokens = await exchangeCode(server.app, PARTNER, callback, verifier);
    expect(tokens.statusCode, tokens.body).toBe(200);
    return tokens.json<{ scope: string; refresh_token?: string; access_token: string }>();
  }

  it('asks a signed-in person once, without the password, and remembers what they allowed', async () => {
    const page = await signedInUser();
    // offline_access counts only with prompt=consent, as OpenID Connect says.
    const { location } = await authorize(page.browser, 'openid email profile offline_access', { prompt: 'consent' });
    expect(location.pathname).toBe('/auth/consent');
    const asked = answer<StepAnswer & { parameters: Record<string, unknown> }>(await page.browser.request('GET', `${API}/consent`));
    expect(asked).toMatchObject({
      challenge: 'CONSENT_REQUIRED',
      parameters: { client_name: 'Partner Budgeting', scopes: { email: true, profile: true, offline_access: true }, unasked: { company: true } },
    });
    // Unticking offline_access declines it: no refresh token.
    const allowed = answer<StepAnswer>(await page.browser.request('POST', `${API}/consent`, { email: true, profile: true }));
    const callback = await followToClient(page.browser, String(allowed.redirect_to), PARTNER.redirectUri);
    expect(callback.searchParams.get('error')).toBeNull();
    expect(callback.searchParams.get('code')).not.toBeNull();
    const again = await authorize(page.browser, 'openid email profile');
    expect(again.location.href.startsWith(PARTNER.redirectUri), again.location.href).toBe(true);
    const tokens = await tokensFor(again.location, again.verifier);
    expect(tokens.scope.split(' ').sort()).toEqual(['email', 'openid', 'profile']);
    expect(tokens.refresh_token).toBeUndefined();
  });

  it('asks in the sign-in itself, after the second factor, and not again at the next sign-in in another browser', async () => {
    const page = await signedInUser();
    const first = new TestBrowser(server.app);
    const { answer: login, codeVerifier } = await logIn(first, { ...PARTNER, email: page.email, password: page.password, scope: 'openid email' });
    expect(login.challenge).toBe('SOFTWARE_TOKEN_MFA');
    const consent = answer<StepAnswer & { parameters: Record<string, unknown> }>(await first.request('POST', `${API}/auth/mfa/verification`, { code: totpCodeAt(page.secret, tick()) }));
    expect(consent).toMatchObject({ challenge: 'CONSENT_REQUIRED', parameters: { scopes: { email: true } } });
    const done = answer<StepAnswer>(await first.request('POST', `${API}/consent`, { email: true }));
    const callback = await followToClient(first, String(done.redirect_to), PARTNER.redirectUri);
    expect((await tokensFor(callback, codeVerifier)).scope.split(' ').sort()).toEqual(['email', 'openid']);

    const second = new TestBrowser(server.app);
    const next = await logIn(second, { ...PARTNER, email: page.email, password: page.password, scope: 'openid email' });
    const finished = answer<StepAnswer>(await second.request('POST', `${API}/auth/mfa/verification`, { code: totpCodeAt(page.secret, tick()) }));
    expect(finished.challenge).toBeUndefined();
    const back = await followToClient(second, String(finished.redirect_to), PARTNER.redirectUri);
    expect((await tokensFor(back, next.codeVerifier)).scope.split(' ').sort()).toEqual(['email', 'openid']);
  });

  it('asks again with prompt=consent, on the consent screen and not the login screen', async () => {
    const page = await signedInUser();
    const first = await authorize(page.browser, 'openid email');
    expect(first.location.pathname).toBe('/auth/consent');
    const allowed = answer<StepAnswer>(await page.browser.request('POST', `${API}/consent`, { email: true }));
    await followToClient(page.browser, String(allowed.redirect_to), PARTNER.redirectUri);
    const prompted = await authorize(page.browser, 'openid email', { prompt: 'consent' });
    expect(prompted.location.pathname).toBe('/auth/consent');
    // The password step's call is refused: this transaction is at the consent step only.
    const login = await page.browser.request('POST', `${API}/auth/login`, { email: page.email, password: await page.browser.encrypt(page.password) });
    expect(login.statusCode).toBe(409);
    const done = answer<StepAnswer>(await page.browser.request('POST', `${API}/consent`, { email: true }));
    const callback = await followToClient(page.browser, String(done.redirect_to), PARTNER.redirectUri);
    expect(callback.searchParams.get('code')).not.toBeNull();
  });

  it('asks again when the app asks for more than it was allowed', async () => {
    const page = await signedInUser();
    await authorize(page.browser, 'openid email');
    answer<StepAnswer>(await page.browser.request('POST', `${API}/consent`, { email: true }));
    const more = await authorize(page.browser, 'openid email profile');
    expect(more.location.pathname).toBe('/auth/consent');
    const asked = answer<StepAnswer & { parameters: Record<string, unknown> }>(await page.browser.request('GET', `${API}/consent`));
    expect(asked.parameters).toMatchObject({ scopes: { email: true, profile: true } });
  });

  it('sends the app access_denied when the person declines, and remembers nothing', async () => {
    const page = await signedInUser();
    await authorize(page.browser, 'openid email');
    const declined = answer<StepAnswer>(await page.browser.request('POST', `${API}/consent/deny`, {}));
    const callback = await followToClient(page.browser, String(declined.redirect_to), PARTNER.redirectUri);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe('partner-state');
    expect((await page.call('GET', '/account/apps')).json()).toEqual({ apps: [] });
  });

  it('lists the app on the account page, and revoking it ends its tokens and asks again', async () => {
    const page = await signedInUser();
    const first = await authorize(page.browser, 'openid email offline_access', { prompt: 'consent' });
    const allowed = answer<StepAnswer>(await page.browser.request('POST', `${API}/consent`, { email: true, offline_access: true }));
    const callback = await followToClient(page.browser, String(allowed.redirect_to), PARTNER.redirectUri);
    const tokens = await tokensFor(callback, first.verifier);
    expect(tokens.refresh_token).toBeDefined();
    const listed = (await page.call('GET', '/account/apps')).json<{ apps: Array<{ clientId: string; clientName: string; scopes: string[] }> }>();
    expect(listed.apps).toEqual([expect.objectContaining({ clientId: PARTNER.clientId, clientName: 'Partner Budgeting', scopes: ['email', 'offline_access'] })]);

    const revoked = await page.call('POST', `/account/apps/${PARTNER.clientId}/revocation`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toEqual({ apps: [] });
    const refresh = await server.app.inject({
      method: 'POST',
      url: '/oidc/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: PARTNER.clientId }).toString(),
    });
    expect(refresh.json()).toMatchObject({ error: 'invalid_grant' });
    const userinfo = await server.app.inject({ method: 'GET', url: '/oidc/me', headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(userinfo.statusCode).toBe(401);
    expect((await authorize(page.browser, 'openid email')).location.pathname).toBe('/auth/consent');
    expect((await page.call('POST', `/account/apps/${PARTNER.clientId}/revocation`)).json()).toMatchObject({ error_code: 'account.app_not_found' });
  });

  it('records taking an app\'s access away in the person\'s activity, naming the app, once', async () => {
    const page = await signedInUser();
    await authorize(page.browser, 'openid email', { prompt: 'consent' });
    answer<StepAnswer>(await page.browser.request('POST', `${API}/consent`, { email: true }));
    await page.call('POST', `/account/apps/${PARTNER.clientId}/revocation`);
    await page.call('POST', `/account/apps/${PARTNER.clientId}/revocation`);
    const activity = (await page.call('GET', '/account/activity')).json<{ events: Array<{ kind: string }> }>();
    expect(activity.events[0]).toMatchObject({ kind: 'app_access_revoked' });
    expect(activity.events.filter((event) => event.kind === 'app_access_revoked')).toHaveLength(1);
    const users = await server.db.query<{ id: string }>('select id from users where email = $1', [page.email]);
    const audit = await listSecurityEvents(server.db, { userId: users.rows[0]!.id });
    expect(audit.find((event) => event.kind === 'app_access_revoked')?.detail).toEqual({ client_id: PARTNER.clientId });
  });

  it('never asks for a first-party app, not even with prompt=consent', async () => {
    const page = await signedInUser();
    const demo = server.publicClient;
    const verifier = randomPKCECodeVerifier();
    const query = new URLSearchParams({
      client_id: demo.clientId,
      redirect_uri: demo.redirectUri,
      response_type: 'code',
      scope: 'openid email offline_access',
      prompt: 'consent',
      state: 's',
      code_challenge: await calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    let location = String((await page.browser.request('GET', `/oidc/auth?${query}`)).headers.location);
    location = (await followToClient(page.browser, new URL(location, TEST_PUBLIC_URL).href, demo.redirectUri)).href;
    const callback = new URL(location);
    expect(callback.searchParams.get('code')).not.toBeNull();
    const tokens = await exchangeCode(server.app, demo, callback, verifier);
    expect(tokens.json()).toMatchObject({ refresh_token: expect.any(String) });
  });
});
