import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endSessions } from '../../server/auth/sessions.ts';
import { totpCodeAt } from '../../server/mfa/totp.ts';
import { setClientRefreshTokens } from '../../server/store/clients.ts';
import { followToClient } from './support/client-return.ts';
import { fakeClock } from './support/fakes.ts';
import { injectFetch } from './support/inject-fetch.ts';
import { API, answer, logIn, setUpTotp, type StepAnswer } from './support/mfa.ts';
import { TestBrowser } from './support/sign-in.ts';
import { startTestApp, TEST_PUBLIC_URL, type TestApp } from './support/test-app.ts';

describe('refresh tokens, revocation and introspection for client apps (openid-client, MFA on)', () => {
  const clock = fakeClock(Date.now());
  let server: TestApp;
  let totpSecret: string;
  let confidential: oidc.Configuration;
  let publicClient: oidc.Configuration;

  beforeAll(async () => {
    server = await startTestApp({ clock: clock.now });
    const discover = (clientId: string, secret?: string) =>
      oidc.discovery(new URL(TEST_PUBLIC_URL), clientId, secret ? { client_secret: secret } : { token_endpoint_auth_method: 'none' }, secret ? oidc.ClientSecretBasic(secret) : oidc.None(), {
        [oidc.customFetch]: injectFetch(server),
        execute: [oidc.allowInsecureRequests],
      });
    confidential = await discover(server.confidentialClient.clientId, server.confidentialClient.secret);
    publicClient = await discover(server.publicClient.clientId);
    // The demo user has no second factor yet: the first sign-in sets up an authenticator app.
    const browser = new TestBrowser(server.app);
    const { answer: first } = await logIn(browser, { ...server.confidentialClient, email: server.user.email, password: server.user.password });
    expect(first.challenge).toBe('MFA_SETUP');
    ({ secret: totpSecret } = await setUpTotp(browser, clock.now()));
  });
  afterAll(async () => {
    await server.close();
  });

  /** Signs in with password and authenticator code, and redeems the code as `client` would. */
  async function signIn(client: { clientId: string; redirectUri: string; scope?: string; prompt?: string }, configuration: oidc.Configuration) {
    clock.advance(60);
    const browser = new TestBrowser(server.app);
    const state = oidc.randomState();
    const { prompt, ...link } = client;
    const { answer: login, codeVerifier } = await logIn(browser, { ...link, ...(prompt ? { extraParams: { prompt } } : {}), state, email: server.user.email, password: server.user.password });
    expect(login.challenge).toBe('SOFTWARE_TOKEN_MFA');
    const done = answer<StepAnswer>(await browser.request('POST', `${API}/auth/mfa/verification`, { code: totpCodeAt(totpSecret, clock.now()) }));
    const callback = await followToClient(browser, String(done.redirect_to), client.redirectUri);
    return oidc.authorizationCodeGrant(configuration, callback, { pkceCodeVerifier: codeVerifier, expectedState: state });
  }

  const userinfoStatus = async (accessToken: string) =>
    (await server.app.inject({ method: 'GET', url: '/oidc/me', headers: { authorization: `Bearer ${accessToken}` } })).statusCode;

  it('refreshes, and refreshes again, each time with a new refresh token and a working access token', async () => {
    const tokens = await signIn(server.confidentialClient, confidential);
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const first = await oidc.refreshTokenGrant(confidential, tokens.refresh_token!);
    const second = await oidc.refreshTokenGrant(confidential, first.refresh_token!);
    expect(new Set([tokens.refresh_token, first.refresh_token, second.refresh_token]).size).toBe(3);
    expect(new Set([tokens.access_token, first.access_token, second.access_token]).size).toBe(3);
    expect(second.claims()?.sub).toBe(tokens.claims()?.sub);
    expect(await userinfoStatus(second.access_token)).toBe(200);
  });

  it('kills the whole token family when a rotated refresh token is replayed', async () => {
    const tokens = await signIn(server.confidentialClient, confidential);
    const rotated = await oidc.refreshTokenGrant(confidential, tokens.refresh_token!);
    await expect(oidc.refreshTokenGrant(confidential, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    // The thief's replay also ended the rightful holder's newer tokens.
    await expect(oidc.refreshTokenGrant(confidential, rotated.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await userinfoStatus(rotated.access_token)).toBe(401);
    expect((await oidc.tokenIntrospection(confidential, rotated.access_token)).active).toBe(false);
  });

  it('lets exactly one of two parallel uses of the same refresh token through, and then revokes the family', async () => {
    const tokens = await signIn(server.confidentialClient, confidential);
    const results = await Promise.allSettled([oidc.refreshTokenGrant(confidential, tokens.refresh_token!), oidc.refreshTokenGrant(confidential, tokens.refresh_token!)]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    // Refused as any replay is, whether it read the token before or after the winner spent it.
    expect(results.find((result) => result.status === 'rejected')?.reason).toMatchObject({ error: 'invalid_grant', status: 400 });
    for (const result of results) {
      if (result.status === 'fulfilled') await expect(oidc.refreshTokenGrant(confidential, result.value.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    }
  });

  it('revokes a refresh token (RFC 7009), after which it refreshes nothing', async () => {
    const tokens = await signIn(server.confidentialClient, confidential);
    await oidc.tokenRevocation(confidential, tokens.refresh_token!, { token_type_hint: 'refresh_token' });
    await expect(oidc.refreshTokenGrant(confidential, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await oidc.tokenIntrospection(confidential, tokens.refresh_token!)).active).toBe(false);
  });

  it('refuses the refresh and access tokens of a session ended by "sign out everywhere", and says nothing of them in introspection', async () => {
    const tokens = await signIn(server.confidentialClient, confidential);
    const userId = String(tokens.claims()?.sub);
    await endSessions(server.context, { userId, which: { all: true }, reason: 'signed_out_everywhere' });
    await expect(oidc.refreshTokenGrant(confidential, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await userinfoStatus(tokens.access_token)).toBe(401);
    expect((await oidc.tokenIntrospection(confidential, tokens.refresh_token!)).active).toBe(false);
  });

  it('revokes an access token, after which the API refuses it', async () => {
    const tokens = await signIn(server.confidentialClient, confidential);
    expect(await userinfoStatus(tokens.access_token)).toBe(200);
    await oidc.tokenRevocation(confidential, tokens.access_token, { token_type_hint: 'access_token' });
    expect(await userinfoStatus(tokens.access_token)).toBe(401);
  });

  it('answers introspection (RFC 7662): active with the token details, inactive for unknown tokens', async () => {
    const tokens = await signIn(server.confidentialClient, confidential);
    const active = await oidc.tokenIntrospection(confidential, tokens.access_token);
    expect(active).toMatchObject({ active: true, client_id: server.confidentialClient.clientId, sub: tokens.claims()?.sub, token_type: 'Bearer' });
    expect((await oidc.tokenIntrospection(confidential, tokens.refresh_token!)).active).toBe(true);
    expect((await oidc.tokenIntrospection(confidential, 'not-a-token-this-server-issued')).active).toBe(false);
  });

  it('tells a public client, which cannot authenticate, nothing about even its own live token', async () => {
    const tokens = await signIn(server.publicClient, publicClient);
    expect(await userinfoStatus(tokens.access_token)).toBe(200);
    expect(await oidc.tokenIntrospection(publicClient, tokens.access_token)).toEqual({ active: false });
  });

  it('gives a refresh token to a client without the setting only when it asks for offline_access with prompt=consent', async () => {
    await setClientRefreshTokens(server.db, server.publicClient.clientId, false);
    try {
      expect((await signIn(server.publicClient, publicClient)).refresh_token).toBeUndefined();
      // OpenID Connect drops offline_access without prompt=consent.
      expect((await signIn({ ...server.publicClient, scope: 'openid offline_access' }, publicClient)).refresh_token).toBeUndefined();
      const offline = await signIn({ ...server.publicClient, scope: 'openid offline_access', prompt: 'consent' }, publicClient);
      expect(offline.refresh_token).toEqual(expect.any(String));
      expect(offline.scope?.split(' ')).toContain('offline_access');
      const refreshed = await oidc.refreshTokenGrant(publicClient, offline.refresh_token!);
      expect(refreshed.refresh_token).not.toBe(offline.refresh_token);
    } finally {
      await setClientRefreshTokens(server.db, server.publicClient.clientId, true);
    }
  });
});
