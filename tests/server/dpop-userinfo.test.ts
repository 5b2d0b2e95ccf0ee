import { createHash, randomUUID } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fapi2App, pushRequest, signInAt, type Fapi2App } from './support/fapi2-client.ts';
import { startTestApp, TEST_PUBLIC_URL, type TestApp } from './support/test-app.ts';

const ENDPOINTS = [
  ['/oidc/me', `${TEST_PUBLIC_URL}/oidc/me`],
  ['/api/sso/v3/userinfo', `${TEST_PUBLIC_URL}/api/sso/v3/userinfo`],
] as const;

describe('DPoP-bound access tokens at /oidc/me and /api/sso/v3/userinfo (RFC 9449)', () => {
  let server: TestApp;
  let app: Fapi2App;
  let accessToken: string;
  let publicJwk: JsonWebKey;

  beforeAll(async () => {
    server = await startTestApp({ env: { MFA_REQUIRED: 'false' } });
    app = await fapi2App(server, 'dpop-app');
    const { authorizationUrl, codeVerifier, state } = await pushRequest(app);
    const params = oauth.validateAuthResponse(app.as, app.client, await signInAt(server, authorizationUrl, app.redirectUri), state);
    const response = await oauth.authorizationCodeGrantRequest(app.as, app.client, app.auth, params, app.redirectUri, codeVerifier, { ...app.options, DPoP: app.dpop });
    accessToken = (await oauth.processAuthorizationCodeResponse(app.as, app.client, response)).access_token;
    publicJwk = await crypto.subtle.exportKey('jwk', app.dpopKeys.publicKey);
  });
  afterAll(async () => {
    await server.close();
  });

  /** A proof made by hand, so each test can get one claim wrong. */
  const proof = (claims: { htm?: string; htu: string; iat?: number; jti?: string; nonce?: string; ath?: string }) =>
    new SignJWT({ htm: 'GET', iat: Math.floor(Date.now() / 1000), jti: randomUUID(), ath: createHash('sha256').update(accessToken).digest('base64url'), ...claims })
      .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk: publicJwk as Parameters<SignJWT['setProtectedHeader']>[0]['jwk'] })
      .sign(app.dpopKeys.privateKey);

  const call = (path: string, headers: Record<string, string>) => server.app.inject({ method: 'GET', url: path, headers });

  it.each(ENDPOINTS)('%s answers a valid proof, through oauth4webapi', async (_path, url) => {
    const response = await oauth.protectedResourceRequest(accessToken, 'GET', new URL(url), new Headers(), null, {
      [oauth.customFetch]: app.options[oauth.customFetch] as unknown as NonNullable<oauth.ProtectedResourceRequestOptions[typeof oauth.customFetch]>,
      [oauth.allowInsecureRequests]: true,
      DPoP: app.dpop!,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ email: server.user.email });
  });

  it.each(ENDPOINTS)('%s refuses the bound token as a plain bearer token, or without a proof', async (path) => {
    expect((await call(path, { authorization: `Bearer ${accessToken}` })).statusCode).toBe(401);
    // Without the DPoP header the request is malformed (oidc-provider: 400 invalid_request) or refused (401).
    expect([400, 401]).toContain((await call(path, { authorization: `DPoP ${accessToken}` })).statusCode);
  });

  it.each(ENDPOINTS)('%s refuses a replayed proof', async (path, url) => {
    const once = await proof({ htu: url });
    expect((await call(path, { authorization: `DPoP ${accessToken}`, dpop: once })).statusCode).toBe(200);
    expect((await call(path, { authorization: `DPoP ${accessToken}`, dpop: once })).statusCode).toBe(401);
  });

  it.each(ENDPOINTS)('%s refuses a proof for another URL (htu) or method (htm)', async (path, url) => {
    const other = ENDPOINTS.find(([candidate]) => candidate !== path)![1];
    expect((await call(path, { authorization: `DPoP ${accessToken}`, dpop: await proof({ htu: other }) })).statusCode).toBe(401);
    expect((await call(path, { authorization: `DPoP ${accessToken}`, dpop: await proof({ htu: url, htm: 'POST' }) })).statusCode).toBe(401);
  });

  it.each(ENDPOINTS)('%s refuses a proof for another token (ath)', async (path, url) => {
    expect((await call(path, { authorization: `DPoP ${accessToken}`, dpop: await proof({ htu: url, ath: 'x'.repeat(43) }) })).statusCode).toBe(401);
  });

  it.each(ENDPOINTS)('%s refuses a stale proof and hands out a DPoP-Nonce, which then works', async (path, url) => {
    const stale = await call(path, { authorization: `DPoP ${accessToken}`, dpop: await proof({ htu: url, iat: Math.floor(Date.now() / 1000) - 600 }) });
    expect(stale.statusCode).toBe(401);
    expect(String(stale.headers['www-authenticate'])).toContain('use_dpop_nonce');
    const nonce = String(stale.headers['dpop-nonce']);
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await call(path, { authorization: `DPoP ${accessToken}`, dpop: await proof({ htu: url, nonce }) })).statusCode).toBe(200);
  });

  it('accepts at the step API a nonce the provider handed out, and refuses a jti the provider has seen', async () => {
    const [[mePath, meUrl], [apiPath, apiUrl]] = ENDPOINTS;
    const stale = await call(mePath, { authorization: `DPoP ${accessToken}`, dpop: await proof({ htu: meUrl, iat: Math.floor(Date.now() / 1000) - 600 }) });
    const nonce = String(stale.headers['dpop-nonce']);
    expect((await call(apiPath, { authorization: `DPoP ${accessToken}`, dpop: await proof({ htu: apiUrl, nonce }) })).statusCode).toBe(200);
    const jti = randomUUID();
    expect((await call(mePath, { authorization: `DPoP ${accessToken}`, dpop: await proof({ htu: meUrl, jti }) })).statusCode).toBe(200);
    expect((await call(apiPath, { authorization: `DPoP ${accessToken}`, dpop: await proof({ htu: apiUrl, jti }) })).statusCode).toBe(401);
  });
});
