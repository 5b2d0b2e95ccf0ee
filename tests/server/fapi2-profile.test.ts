import * as oauth from 'oauth4webapi';
import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addClient } from '../../server/admin/operations.ts';
import { OperationError } from '../../server/admin/operation-error.ts';
import { fapi2App, publicJwks, pushRequest, signInAt, type Fapi2App } from './support/fapi2-client.ts';
import { startTestApp, TEST_PUBLIC_URL, type TestApp } from './support/test-app.ts';

describe('a client app of the fapi2 profile, driven with oauth4webapi (PAR, private_key_jwt, DPoP)', () => {
  let server: TestApp;
  let app: Fapi2App;

  beforeAll(async () => {
    server = await startTestApp({ env: { MFA_REQUIRED: 'false' } });
    app = await fapi2App(server, 'fapi-app');
  });
  afterAll(async () => {
    await server.close();
  });

  /** The whole happy path up to the token response. */
  async function signIn() {
    const { authorizationUrl, codeVerifier, state } = await pushRequest(app);
    const callback = await signInAt(server, authorizationUrl, app.redirectUri);
    const params = oauth.validateAuthResponse(app.as, app.client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(app.as, app.client, app.auth, params, app.redirectUri, codeVerifier, { ...app.options, DPoP: app.dpop });
    return { callback, tokens: await oauth.processAuthorizationCodeResponse(app.as, app.client, response) };
  }

  const form = (url: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
    server.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: new URLSearchParams(body).toString() });

  it('signs in with PAR, private_key_jwt and DPoP, gets DPoP-bound tokens, reads userinfo and refreshes', async () => {
    const { callback, tokens } = await signIn();
    expect(callback.searchParams.get('iss')).toBe(TEST_PUBLIC_URL);
    expect(tokens.token_type.toLowerCase()).toBe('dpop');
    expect(decodeProtectedHeader(tokens.id_token!).alg).toBe('ES256');
    const sub = oauth.getValidatedIdTokenClaims(tokens)!.sub;
    const userinfo = await oauth.userInfoRequest(app.as, app.client, tokens.access_token, { ...app.options, DPoP: app.dpop });
    expect(await oauth.processUserInfoResponse(app.as, app.client, sub, userinfo)).toMatchObject({ sub, email: server.user.email });
    const refreshed = await oauth.processRefreshTokenResponse(
      app.as,
      app.client,
      await oauth.refreshTokenGrantRequest(app.as, app.client, app.auth, tokens.refresh_token!, { ...app.options, DPoP: app.dpop }),
    );
    expect(refreshed.token_type.toLowerCase()).toBe('dpop');
    expect(refreshed.access_token).not.toBe(tokens.access_token);
  });

  it('refuses an authorization request that was not pushed (PAR only)', async () => {
    const query = new URLSearchParams({
      client_id: app.client.client_id,
      redirect_uri: app.redirectUri,
      response_type: 'code',
      scope: 'openid',
      state: 'not-pushed',
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      code_challenge_method: 'S256',
    });
    const response = await server.app.inject({ method: 'GET', url: `/oidc/auth?${query}` });
    const answer = new URL(String(response.headers.location));
    expect(answer.searchParams.get('error')).toBe('invalid_request');
    expect(answer.searchParams.get('code')).toBeNull();
  });

  it('refuses a pushed request without PKCE (S256)', async () => {
    const params = new URLSearchParams({ redirect_uri: app.redirectUri, response_type: 'code', scope: 'openid', state: 'no-pkce' });
    const response = await oauth.pushedAuthorizationRequest(app.as, app.client, app.auth, params, app.options);
    await expect(oauth.processPushedAuthorizationResponse(app.as, app.client, response)).rejects.toMatchObject({ error: 'invalid_request' });
  });

  it('refuses client authentication other than private_key_jwt (a client secret)', async () => {
    const response = await form('/oidc/request', { client_id: app.client.client_id, client_secret: 'guessed', response_type: 'code', redirect_uri: app.redirectUri });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('refuses a client assertion signed with an algorithm outside PS256/ES256, and registering one', async () => {
    const rsa = await oauth.generateKeyPair('RS256', { extractable: true });
    await expect(
      addClient({ db: server.db, box: server.context.box }, { clientId: 'fapi-rs256', redirectUris: [app.redirectUri], isPublic: false, profile: 'fapi2', jwks: await publicJwks(rsa, 'RS256', 'rsa') }),
    ).rejects.toBeInstanceOf(OperationError);
    const impostor = { ...app, auth: oauth.PrivateKeyJwt({ key: rsa.privateKey, kid: 'app-key' }) };
    await expect(pushRequest(impostor)).rejects.toMatchObject({ error: 'invalid_client' });
  });

  it('refuses to redeem a code without a DPoP proof (DPoP-bound tokens only)', async () => {
    const { authorizationUrl, codeVerifier, state } = await pushRequest(app);
    const callback = await signInAt(server, authorizationUrl, app.redirectUri);
    const params = oauth.validateAuthResponse(app.as, app.client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(app.as, app.client, app.auth, params, app.redirectUri, codeVerifier, app.options);
    // The pushed request bound the code to the app's DPoP key (dpop_jkt): without its proof the code is no good (RFC 9449 §10).
    await expect(oauth.processAuthorizationCodeResponse(app.as, app.client, response)).rejects.toMatchObject({ error: 'invalid_grant' });
    const unbound = await pushRequest({ ...app, dpop: undefined });
    const params2 = oauth.validateAuthResponse(app.as, app.client, await signInAt(server, unbound.authorizationUrl, app.redirectUri), unbound.state);
    const plain = await oauth.authorizationCodeGrantRequest(app.as, app.client, app.auth, params2, app.redirectUri, unbound.codeVerifier, app.options);
    // Unbound at the push, the code still needs a proof at the token endpoint: oidc-provider says invalid_grant.
    await expect(oauth.processAuthorizationCodeResponse(app.as, app.client, plain)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('sends the iss response parameter, and oauth4webapi refuses a response from another issuer', async () => {
    const { authorizationUrl, state } = await pushRequest(app);
    const callback = await signInAt(server, authorizationUrl, app.redirectUri);
    expect(callback.searchParams.get('iss')).toBe(TEST_PUBLIC_URL);
    callback.searchParams.set('iss', 'https://attacker.example');
    expect(() => oauth.validateAuthResponse(app.as, app.client, callback, state)).toThrow();
  });

  it('issues codes that live at most 60 s', async () => {
    const { authorizationUrl } = await pushRequest(app);
    const callback = await signInAt(server, authorizationUrl, app.redirectUri);
    const row = await server.db.query<{ lifetime: number }>(
      "select extract(epoch from expires_at - now())::float as lifetime from oidc_payloads where model = 'AuthorizationCode' and id = $1",
      [callback.searchParams.get('code')],
    );
    expect(row.rows[0]!.lifetime).toBeLessThanOrEqual(60);
  });

  it('refuses a DPoP-bound access token presented as a bearer token, at /oidc/me', async () => {
    const { tokens } = await signIn();
    const bearer = await server.app.inject({ method: 'GET', url: '/oidc/me', headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(bearer.statusCode).toBe(401);
  });
});
