/**
 * A public client app on another origin, written with oauth4webapi (panva's strict client, which nobody here wrote),
 * against the provider: code + PKCE, refresh, revocation, RP-initiated logout that comes back with its state, and
 * form_post. Its calls carry the app's Origin, as a browser app's would.
 */
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addClient } from '../../server/admin/operations.ts';
import { allowWhatTheAppAsks } from './support/consent.ts';
import type { StepAnswer } from './support/mfa.ts';
import { TestBrowser, submitLogin } from './support/sign-in.ts';
import { startTestApp, TEST_PUBLIC_URL, type TestApp } from './support/test-app.ts';

const APP_ORIGIN = 'https://spa.example.org';
const CLIENT: oauth.Client = { client_id: 'spa-app' };
const REDIRECT_URI = `${APP_ORIGIN}/callback`;
const SIGNED_OUT_URI = `${APP_ORIGIN}/signed-out`;

describe('a public client app on another origin, with oauth4webapi', () => {
  let server: TestApp;
  let as: oauth.AuthorizationServer;

  /** oauth4webapi's HTTP calls, sent into the server under test with the app's Origin; answers keep every header. */
  const appFetch: typeof fetch = async (input, init) => {
    const target = new URL(input instanceof Request ? input.url : String(input));
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const response = await server.app.inject({
      method: (init?.method ?? 'GET') as 'GET' | 'POST',
      url: `${target.pathname}${target.search}`,
      headers: { ...headers, origin: APP_ORIGIN },
      payload: init?.body === undefined || init.body === null ? undefined : String(init.body),
    });
    const answer = new Headers();
    for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) answer.set(name, Array.isArray(value) ? value.join(', ') : String(value));
    return new Response(response.statusCode === 204 ? null : new Uint8Array(response.rawPayload), { status: response.statusCode, headers: answer });
  };
  const options = { [oauth.customFetch]: appFetch, [oauth.allowInsecureRequests]: true };

  beforeAll(async () => {
    server = await startTestApp({ env: { MFA_REQUIRED: 'false' } });
    await addClient(server.context, {
      clientId: CLIENT.client_id,
      name: 'Single-page app',
      redirectUris: [REDIRECT_URI],
      isPublic: true,
      refreshTokens: true,
      postLogoutRedirectUris: [SIGNED_OUT_URI],
    });
    const issuer = new URL(TEST_PUBLIC_URL);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, options));
  });
  afterAll(async () => {
    await server.close();
  });

  /** The browser's part: the authorization request, the login screen's password, on to the provider's answer. */
  async function authorize(extra: Record<string, string> = {}, client: oauth.Client = CLIENT) {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'openid email profile',
      state,
      nonce,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      ...extra,
    }).toString();
    const browser = new TestBrowser(server.app);
    const toLogin = await browser.request('GET', url.href);
    expect(String(toLogin.headers.location)).toMatch(/^\/auth\/login\?/);
    const login = await submitLogin(browser, server.user.email, server.user.password);
    expect(login.statusCode, login.body).toBe(200);
    const allowed = await allowWhatTheAppAsks(browser, login.json<StepAnswer>());
    const answer = await browser.request('GET', String(allowed.redirect_to));
    return { browser, answer, verifier, state, nonce };
  }

  async function signIn(client: oauth.Client = CLIENT) {
    const { browser, answer, verifier, state, nonce } = await authorize({}, client);
    const callback = oauth.validateAuthResponse(as, client, new URL(String(answer.headers.location)), state);
    const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), callback, REDIRECT_URI, verifier, options);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: nonce, requireIdToken: true });
    return { browser, tokens };
  }

  const algOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString()).alg as string;

  it('signs ID tokens with RS256 unless the app registered ES256 or PS256, and discovery says so', async () => {
    expect(as.id_token_signing_alg_values_supported).toEqual(expect.arrayContaining(['RS256', 'PS256', 'ES256']));
    expect(algOf((await signIn()).tokens.id_token!)).toBe('RS256');
    for (const alg of ['ES256', 'PS256']) {
      const client: oauth.Client = { client_id: `spa-${alg.toLowerCase()}`, id_token_signed_response_alg: alg };
      await addClient(server.context, { clientId: client.client_id, redirectUris: [REDIRECT_URI], isPublic: true, idTokenAlg: alg });
      expect(algOf((await signIn(client)).tokens.id_token!)).toBe(alg);
    }
  });

  it('signs in with code + PKCE and reads userinfo from the app\'s origin', async () => {
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    const { tokens } = await signIn();
    const claims = oauth.getValidatedIdTokenClaims(tokens)!;
    expect(claims).toMatchObject({ iss: TEST_PUBLIC_URL, aud: CLIENT.client_id, email: server.user.email });
    const userinfo = await oauth.processUserInfoResponse(as, CLIENT, claims.sub, await oauth.userInfoRequest(as, CLIENT, tokens.access_token, options));
    expect(userinfo).toMatchObject({ sub: claims.sub, email: server.user.email });
  });

  it('refreshes, rotating the refresh token, and a reused one is refused', async () => {
    const { tokens } = await signIn();
    expect(tokens.refresh_token).toBeTruthy();
    const refreshed = await oauth.processRefreshTokenResponse(as, CLIENT, await oauth.refreshTokenGrantRequest(as, CLIENT, oauth.None(), tokens.refresh_token!, options));
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    const reused = oauth.processRefreshTokenResponse(as, CLIENT, await oauth.refreshTokenGrantRequest(as, CLIENT, oauth.None(), tokens.refresh_token!, options));
    await expect(reused).rejects.toMatchObject({ code: oauth.RESPONSE_BODY_ERROR, error: 'invalid_grant' });
  });

  it('revokes its access token, which userinfo then refuses', async () => {
    const { tokens } = await signIn();
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, CLIENT, oauth.None(), tokens.access_token, options));
    const userinfo = oauth.processUserInfoResponse(as, CLIENT, oauth.skipSubjectCheck, await oauth.userInfoRequest(as, CLIENT, tokens.access_token, options));
    await expect(userinfo).rejects.toMatchObject({ code: oauth.WWW_AUTHENTICATE_CHALLENGE });
  });

  it('signs out at the provider and comes back to the app with its state, the page letting the form lead there', async () => {
    const { browser, tokens } = await signIn();
    const state = oauth.generateRandomState();
    const endSession = new URL(as.end_session_endpoint!);
    endSession.search = new URLSearchParams({ id_token_hint: tokens.id_token!, post_logout_redirect_uri: SIGNED_OUT_URI, state }).toString();
    const page = await browser.request('GET', endSession.href);
    expect(page.statusCode).toBe(200);
    expect(String(page.headers['content-security-policy'])).toMatch(new RegExp(`form-action 'self' ${APP_ORIGIN};`));
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)![1]!;
    const done = await server.app.inject({
      method: 'POST',
      url: '/oidc/session/end/confirm',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: browser.jar.header('/oidc/session/end/confirm') },
      payload: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
    });
    expect(done.statusCode).toBe(303);
    expect(String(done.headers.location)).toBe(`${SIGNED_OUT_URI}?state=${state}`);
  });

  it('lets a sign-out without a session lead back to the app too', async () => {
    const state = oauth.generateRandomState();
    const query = new URLSearchParams({ client_id: CLIENT.client_id, post_logout_redirect_uri: SIGNED_OUT_URI, state });
    const back = await new TestBrowser(server.app).request('GET', `${as.end_session_endpoint}?${query}`);
    // Nothing to end: straight back to the app with its state, no confirmation page, no cookie.
    expect(back.statusCode).toBe(303);
    expect(String(back.headers.location)).toBe(`${SIGNED_OUT_URI}?state=${state}`);
    expect(back.headers['set-cookie']).toBeUndefined();
  });

  it('receives the code by form_post on its own origin, and exchanges it', async () => {
    const { answer, verifier, state, nonce } = await authorize({ response_mode: 'form_post' });
    expect(answer.statusCode).toBe(200);
    expect(String(answer.headers['content-security-policy'])).toMatch(new RegExp(`form-action 'self' ${APP_ORIGIN};`));
    const action = /<form method="post" action="([^"]+)"/.exec(answer.body)?.[1];
    expect(action).toBe(REDIRECT_URI);
    const posted = new URLSearchParams([...answer.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, name, value]) => [name!, value!]));
    const callback = oauth.validateAuthResponse(as, CLIENT, posted, state);
    const response = await oauth.authorizationCodeGrantRequest(as, CLIENT, oauth.None(), callback, REDIRECT_URI, verifier, options);
    const tokens = await oauth.processAuthorizationCodeResponse(as, CLIENT, response, { expectedNonce: nonce, requireIdToken: true });
    expect(oauth.getValidatedIdTokenClaims(tokens)?.email).toBe(server.user.email);
  });
});
