import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser, openLoginScreen, submitLogin } from './support/sign-in.ts';
import { injectFetch } from './support/inject-fetch.ts';
import { startTestApp, TEST_PUBLIC_URL, type TestApp } from './support/test-app.ts';

describe('a standard relying party (openid-client) against the provider', () => {
  let server: TestApp;
  beforeAll(async () => {
    // Not about the second factor: these users sign in on their password alone (MFA is tested in tests/server/mfa-*.test.ts).
    server = await startTestApp({ env: { MFA_REQUIRED: 'false' } });
  });
  afterAll(async () => {
    await server.close();
  });

  async function discover(clientId: string, secret?: string) {
    return oidc.discovery(new URL(TEST_PUBLIC_URL), clientId, secret ? { client_secret: secret } : { token_endpoint_auth_method: 'none' }, secret ? oidc.ClientSecretBasic(secret) : oidc.None(), {
      [oidc.customFetch]: injectFetch(server),
      execute: [oidc.allowInsecureRequests],
    });
  }

  it('discovers the issuer, signs in through the step API with code + PKCE, and reads userinfo', async () => {
    const configuration = await discover(server.publicClient.clientId);
    const metadata = configuration.serverMetadata();
    expect(metadata.issuer).toBe(TEST_PUBLIC_URL);
    expect(metadata.id_token_signing_alg_values_supported).toEqual(expect.arrayContaining(['RS256', 'PS256', 'ES256']));
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);

    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const authorizationUrl = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: server.publicClient.redirectUri,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });

    // The browser follows the standard authorization request to the web app's login screen...
    const browser = new TestBrowser(server.app);
    const toLogin = await browser.request('GET', authorizationUrl.href);
    expect(String(toLogin.headers.location)).toMatch(/^\/auth\/login\?/);
    // ...and the login step is answered through the same API the web app uses.
    const login = await submitLogin(browser, server.user.email, server.user.password);
    expect(login.statusCode).toBe(200);
    const resume = await browser.request('GET', login.json().redirect_to);
    const callback = new URL(String(resume.headers.location));

    const tokens = await oidc.authorizationCodeGrant(configuration, callback, { pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce });
    const claims = tokens.claims();
    expect(claims?.email).toBe(server.user.email);
    const header = JSON.parse(Buffer.from(tokens.id_token!.split('.')[0]!, 'base64url').toString());
    expect(header.alg).toBe('RS256');
    const userinfo = await oidc.fetchUserInfo(configuration, tokens.access_token, claims!.sub);
    expect(userinfo).toMatchObject({ email: server.user.email, given_name: 'Dana', family_name: 'Demo' });

    const apiUserinfo = await server.app.inject({ method: 'GET', url: '/api/sso/v3/userinfo', headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(apiUserinfo.json()).toMatchObject({ sub: claims!.sub, email: server.user.email });
  });

  it('refuses a second use of a code and revokes what the first use issued', async () => {
    const configuration = await discover(server.confidentialClient.clientId, server.confidentialClient.secret);
    const browser = new TestBrowser(server.app);
    const state = oidc.randomState();
    const { codeVerifier } = await openLoginScreen(browser, { ...server.confidentialClient, state });
    const login = await submitLogin(browser, server.user.email, server.user.password);
    const resume = await browser.request('GET', login.json().redirect_to);
    const callback = new URL(String(resume.headers.location));

    const exchange = () => oidc.authorizationCodeGrant(configuration, callback, { expectedState: state, pkceCodeVerifier: codeVerifier });
    const first = await exchange();
    await expect(exchange()).rejects.toMatchObject({ error: 'invalid_grant' });
    const userinfo = await server.app.inject({ method: 'GET', url: '/oidc/me', headers: { authorization: `Bearer ${first.access_token}` } });
    expect(userinfo.statusCode).toBe(401);
  });
});
