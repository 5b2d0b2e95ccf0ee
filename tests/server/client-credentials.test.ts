/**
 * A service app (no person) gets short-lived access tokens for one resource server with client_credentials and an
 * RFC 8707 resource indicator, driven with oauth4webapi; only the resource servers in a token's audience may
 * introspect it.
 */
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addClient } from '../../server/admin/operations.ts';
import { OperationError } from '../../server/admin/operation-error.ts';
import { LIMITS } from '../../server/limits.ts';
import { injectFetch } from './support/inject-fetch.ts';
import { startTestApp, TEST_PUBLIC_URL, type TestApp } from './support/test-app.ts';

const PAYMENTS_API = 'https://payments-api.example';
const LEDGER_API = 'https://ledger-api.example';
/** oidc-provider's answer to a grant the client was not registered for. */
const GRANT_NOT_ALLOWED = { error: 'invalid_request', error_description: 'requested grant type is not allowed for this client' };

describe('client_credentials with resource indicators, driven with oauth4webapi', () => {
  let server: TestApp;
  let as: oauth.AuthorizationServer;
  let options: { [oauth.customFetch]: typeof fetch; [oauth.allowInsecureRequests]: true };
  const secrets = new Map<string, string>();

  /** Registers a confidential client as the operator would, keeping its secret. */
  async function register(clientId: string, extra: Parameters<typeof addClient>[1] extends infer Input ? Partial<Input> : never) {
    const added = await addClient(server.context, { clientId, redirectUris: [], isPublic: false, ...extra });
    secrets.set(clientId, added.secret!);
  }
  const auth = (clientId: string) => oauth.ClientSecretBasic(secrets.get(clientId)!);

  /** A client_credentials token request of `clientId`, processed by oauth4webapi. */
  async function serviceToken(clientId: string, parameters: Record<string, string>) {
    const response = await oauth.clientCredentialsGrantRequest(as, { client_id: clientId }, auth(clientId), parameters, options);
    return oauth.processClientCredentialsResponse(as, { client_id: clientId }, response);
  }

  async function introspect(clientId: string, token: string) {
    const response = await oauth.introspectionRequest(as, { client_id: clientId }, auth(clientId), token, options);
    return oauth.processIntrospectionResponse(as, { client_id: clientId }, response);
  }

  beforeAll(async () => {
    server = await startTestApp();
    options = { [oauth.customFetch]: injectFetch(server) as typeof fetch, [oauth.allowInsecureRequests]: true };
    await register('payments-api', { resourceServer: PAYMENTS_API });
    await register('ledger-api', { resourceServer: LEDGER_API });
    await register('settlement-service', { serviceScopes: ['payments:read', 'payments:write'] });
    await register('web-app', { redirectUris: ['https://web.example/callback'] });
    const issuer = new URL(TEST_PUBLIC_URL);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, options));
  }, 180_000);
  afterAll(async () => {
    await server.close();
  });

  it('issues a short-lived token for the named resource server, with the scopes asked for', async () => {
    const tokens = await serviceToken('settlement-service', { scope: 'payments:read', resource: PAYMENTS_API });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.scope).toBe('payments:read');
    expect(tokens.expires_in).toBeGreaterThan(0);
    expect(tokens.expires_in).toBeLessThanOrEqual(LIMITS.SERVICE_TOKEN_TTL);
    expect(as.grant_types_supported).toContain('client_credentials');
  });

  it('describes the token to the resource server in its audience only: not to another, nor to the service app itself', async () => {
    const { access_token } = await serviceToken('settlement-service', { scope: 'payments:read payments:write', resource: PAYMENTS_API });
    expect(await introspect('payments-api', access_token)).toMatchObject({
      active: true,
      client_id: 'settlement-service',
      aud: PAYMENTS_API,
      scope: 'payments:read payments:write',
    });
    for (const stranger of ['ledger-api', 'settlement-service', 'web-app']) expect(await introspect(stranger, access_token)).toEqual({ active: false });
  });

  it('is no token for a person: the userinfo endpoints refuse it', async () => {
    const { access_token } = await serviceToken('settlement-service', { scope: 'payments:read', resource: PAYMENTS_API });
    for (const url of ['/oidc/me', '/api/sso/v3/userinfo']) {
      const response = await server.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${access_token}` } });
      expect(response.statusCode).toBe(401);
    }
  });

  it('lists every registered service scope in discovery, beside the scopes of a person\'s sign-in', async () => {
    expect(as.scopes_supported).toEqual(expect.arrayContaining(['openid', 'offline_access', 'payments:read', 'payments:write']));
    await register('ledger-service', { serviceScopes: ['ledger:read'] });
    const issuer = new URL(TEST_PUBLIC_URL);
    const fresh = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, options));
    expect(fresh.scopes_supported).toContain('ledger:read');
    expect(fresh.scopes_supported?.filter((scope) => scope === 'payments:read')).toHaveLength(1);
  });

  it('refuses an unknown resource, and a request naming none, with invalid_target', async () => {
    await expect(serviceToken('settlement-service', { scope: 'payments:read', resource: 'https://unknown-api.example' })).rejects.toMatchObject({ error: 'invalid_target' });
    await expect(serviceToken('settlement-service', { scope: 'payments:read' })).rejects.toMatchObject({ error: 'invalid_target' });
  });

  it('refuses a scope the service app was not registered for with invalid_scope, never dropping it silently', async () => {
    await expect(serviceToken('settlement-service', { scope: 'payments:read payments:refund', resource: PAYMENTS_API })).rejects.toMatchObject({
      error: 'invalid_scope',
    });
    await expect(serviceToken('settlement-service', { scope: 'openid', resource: PAYMENTS_API })).rejects.toMatchObject({ error: 'invalid_scope' });
  });

  it('refuses client_credentials to a client that is no service app', async () => {
    await expect(serviceToken('web-app', { scope: 'payments:read', resource: PAYMENTS_API })).rejects.toMatchObject(GRANT_NOT_ALLOWED);
  });

  it('refuses a public client: it cannot be registered for client_credentials, and the token endpoint refuses it', async () => {
    await expect(addClient(server.context, { clientId: 'public-service', redirectUris: ['https://spa.example/callback'], isPublic: true, serviceScopes: ['payments:read'] })).rejects.toBeInstanceOf(
      OperationError,
    );
    const response = await oauth.clientCredentialsGrantRequest(as, { client_id: server.publicClient.clientId }, oauth.None(), { scope: 'payments:read', resource: PAYMENTS_API }, options);
    await expect(oauth.processClientCredentialsResponse(as, { client_id: server.publicClient.clientId }, response)).rejects.toMatchObject(GRANT_NOT_ALLOWED);
  });

  it('refuses resource indicators in a person\'s sign-in: their tokens are for the userinfo endpoint', async () => {
    const query = new URLSearchParams({
      client_id: 'web-app',
      redirect_uri: 'https://web.example/callback',
      response_type: 'code',
      scope: 'openid',
      resource: PAYMENTS_API,
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      code_challenge_method: 'S256',
    });
    const response = await server.app.inject({ method: 'GET', url: `/oidc/auth?${query}` });
    expect(new URL(String(response.headers.location)).searchParams.get('error')).toBe('invalid_target');
  });

  it('refuses a resource indicator another client already answers for', async () => {
    await expect(addClient(server.context, { clientId: 'payments-api-2', redirectUris: [], isPublic: false, resourceServer: PAYMENTS_API })).rejects.toBeInstanceOf(OperationError);
  });
});
