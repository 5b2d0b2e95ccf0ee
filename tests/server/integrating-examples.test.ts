/**
 * The openid-client examples of docs/integrating.md, run as written against the provider: a service app's
 * client_credentials token (plain and DPoP-bound) checked by its resource server's introspection, and a pushed
 * authorization request of a default-profile app, whose browser URL carries nothing but the client id and request URI.
 */
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addClient } from '../../server/admin/operations.ts';
import { injectFetch } from './support/inject-fetch.ts';
import { startTestApp, TEST_PUBLIC_URL, type TestApp } from './support/test-app.ts';

const PAYMENTS_API = 'https://payments-api.example';
const SERVER_APP_CALLBACK = 'https://app.example.com/auth/callback';

describe('the openid-client examples of the integration guide', () => {
  let server: TestApp;

  /** Registers a confidential client as the operator would, and configures openid-client for it by discovery. */
  async function configure(clientId: string, extra: Partial<Parameters<typeof addClient>[1]>): Promise<oidc.Configuration> {
    const { secret } = await addClient(server.context, { clientId, redirectUris: [], isPublic: false, ...extra });
    return oidc.discovery(new URL(TEST_PUBLIC_URL), clientId, secret, undefined, { execute: [oidc.allowInsecureRequests], [oidc.customFetch]: injectFetch(server) });
  }

  beforeAll(async () => {
    server = await startTestApp();
  }, 180_000);
  afterAll(async () => {
    await server.close();
  });

  it('gets a service token for the payments API, which its introspection describes to that API only', async () => {
    const api = await configure('payments-api', { resourceServer: PAYMENTS_API });
    const job = await configure('settlement-job', { serviceScopes: ['payments:read', 'payments:write'] });
    const tokens = await oidc.clientCredentialsGrant(job, { resource: PAYMENTS_API, scope: 'payments:read' });
    expect(tokens.scope).toBe('payments:read');
    expect(tokens.refresh_token).toBeUndefined();
    const info = await oidc.tokenIntrospection(api, tokens.access_token);
    expect(info).toMatchObject({ active: true, aud: PAYMENTS_API, scope: 'payments:read', client_id: 'settlement-job' });
    expect(await oidc.tokenIntrospection(job, tokens.access_token)).toEqual({ active: false });
  });

  it('binds a service token to the app\'s key when the request carries a DPoP proof', async () => {
    const job = await configure('dpop-job', { serviceScopes: ['payments:read'] });
    const DPoP = oidc.getDPoPHandle(job, await oidc.randomDPoPKeyPair('ES256'));
    const tokens = await oidc.clientCredentialsGrant(job, { resource: PAYMENTS_API, scope: 'payments:read' }, { DPoP });
    expect(tokens.token_type.toLowerCase()).toBe('dpop');
  });

  it('pushes a default-profile sign-in (PAR): the browser is sent to the provider with the client id and request URI only, and may reload it', async () => {
    const app = await configure('my-server-app', { redirectUris: [SERVER_APP_CALLBACK] });
    const verifier = oidc.randomPKCECodeVerifier();
    const url = await oidc.buildAuthorizationUrlWithPAR(app, {
      redirect_uri: SERVER_APP_CALLBACK,
      scope: 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: oidc.randomState(),
    });
    expect([...url.searchParams.keys()].sort()).toEqual(['client_id', 'request_uri']);
    const started = await server.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(started.statusCode).toBe(303);
    expect(new URL(String(started.headers.location), TEST_PUBLIC_URL).pathname).toBe('/auth/login');
    const reloaded = await server.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    // A reload opens the same request again: oidc-provider spends a request URI when it hands out the code, not before.
    expect(new URL(String(reloaded.headers.location), TEST_PUBLIC_URL).pathname).toBe('/auth/login');
    // An unknown request URI names no redirect URI to send the error to: the person gets the error page.
    const unknown = await server.app.inject({ method: 'GET', url: `${url.pathname}?client_id=my-server-app&request_uri=urn:ietf:params:oauth:request_uri:unknown` });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.headers.location).toBeUndefined();
  });
});
