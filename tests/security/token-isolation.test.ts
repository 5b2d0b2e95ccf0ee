import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addClient } from '../../server/admin/operations.ts';
import { signIn, TestBrowser } from '../server/support/sign-in.ts';
import { startTestApp, type TestApp } from '../server/support/test-app.ts';
import { campaignBackends, campaignCounter } from './support/campaign.ts';

const API = '/api/sso/v3';
const PARALLEL = 20;
const ROUNDS = 3;
const GRANT_MEMBERS = ['AccessToken', 'AuthorizationCode', 'RefreshToken'];

interface Confidential {
  clientId: string;
  redirectUri: string;
  secret: string;
}

const basic = (client: Confidential) => `Basic ${Buffer.from(`${client.clientId}:${client.secret}`).toString('base64')}`;

describe.each(campaignBackends().map((backend) => [backend.name, backend] as const))('token isolation on %s', (name, backend) => {
  const introspection = campaignCounter(`23.3 introspection of another client's token on ${name}`);
  const missingCredential = campaignCounter(`24.9 missing client credential at revocation and introspection on ${name}`);
  const revokedGrant = campaignCounter(`23.5 tokens of a revoked grant (userinfo, parallel replays) on ${name}`);
  const confidentialPkce = campaignCounter(`23.15 PKCE for confidential clients on ${name}`);
  let server: TestApp;
  let owner: Confidential;
  let other: Confidential;

  beforeAll(async () => {
    server = await startTestApp({ backend, env: { MFA_REQUIRED: 'false' } });
    owner = server.confidentialClient;
    const added = await addClient({ db: server.db, box: server.context.box }, { clientId: 'other-app', redirectUris: ['http://localhost:8080/other/callback'], isPublic: false });
    other = { clientId: added.clientId, redirectUri: 'http://localhost:8080/other/callback', secret: added.secret! };
  }, 120_000);
  afterAll(async () => {
    for (const counter of [introspection, missingCredential, revokedGrant, confidentialPkce]) counter.print();
    await server.close();
  });

  const form = (url: string, body: Record<string, string>, authorization?: string) =>
    server.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(authorization ? { authorization } : {}) },
      payload: new URLSearchParams(body).toString(),
    });

  /** Signs the demo user in to `client` and redeems the code: the confidential client's token response. */
  async function tokensFor(client: Confidential): Promise<{ response: () => Promise<LightMyRequestResponse> }> {
    const { callback, codeVerifier } = await signIn(new TestBrowser(server.app), { ...client, email: server.user.email, password: server.user.password });
    const code = callback.searchParams.get('code') ?? '';
    return { response: () => form('/oidc/token', { grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, code_verifier: codeVerifier }, basic(client)) };
  }

  const userinfoStatuses = async (accessToken: string) => [
    (await server.app.inject({ method: 'GET', url: '/oidc/me', headers: { authorization: `Bearer ${accessToken}` } })).statusCode,
    (await server.app.inject({ method: 'GET', url: `${API}/userinfo`, headers: { authorization: `Bearer ${accessToken}` } })).statusCode,
  ];

  /** Rows of tokens and codes whose grant no longer exists. */
  const orphans = async () =>
    (
      await server.db.query<{ n: number }>(
        `select count(*)::int as n from oidc_payloads t where t.model = any($1) and t.grant_id is not null
           and not exists (select 1 from oidc_payloads g where g.model = 'Grant' and g.id = t.grant_id)`,
        [GRANT_MEMBERS],
      )
    ).rows[0]!.n;

  it('23.3: introspection tells a confidential client nothing of another client\'s token, and its owner everything', async () => {
    const tokens = (await (await tokensFor(owner)).response()).json<{ access_token: string; refresh_token: string }>();
    for (const token of [tokens.access_token, tokens.refresh_token]) {
      const stranger = (await form('/oidc/token/introspection', { token }, basic(other))).json<Record<string, unknown>>();
      introspection.record(stranger.active === false && Object.keys(stranger).length === 1);
      expect(stranger).toEqual({ active: false });
      const own = (await form('/oidc/token/introspection', { token }, basic(owner))).json<Record<string, unknown>>();
      introspection.record(own.active === true);
      expect(own).toMatchObject({ active: true, client_id: owner.clientId });
    }
  });

  it.each(['/oidc/token/introspection', '/oidc/token/revocation'])('24.9: %s answers a request without any client credential with 401 invalid_client', async (url) => {
    for (const body of [{ token: 'some-token' }, { token: 'some-token', token_type_hint: 'access_token' }] as Record<string, string>[]) {
      const response = await form(url, body);
      missingCredential.record(response.statusCode === 401 && response.json<{ error: string }>().error === 'invalid_client');
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ error: 'invalid_client' });
    }
  });

  it('23.5: /api/sso/v3/userinfo refuses an access token whose grant was revoked, as /oidc/me does', async () => {
    const tokens = (await (await tokensFor(owner)).response()).json<{ access_token: string }>();
    expect(await userinfoStatuses(tokens.access_token)).toEqual([200, 200]);
    // What a revocation racing a deferred write used to leave: the token's row without its grant.
    const row = await server.db.query<{ grant_id: string }>("select grant_id from oidc_payloads where model = 'AccessToken' and id = $1", [tokens.access_token]);
    await server.db.query("delete from oidc_payloads where model = 'Grant' and id = $1", [row.rows[0]!.grant_id]);
    const statuses = await userinfoStatuses(tokens.access_token);
    revokedGrant.record(statuses.every((status) => status === 401));
    expect(statuses).toEqual([401, 401]);
    await server.db.query('delete from oidc_payloads where grant_id = $1', [row.rows[0]!.grant_id]);
  });

  it('23.5: no token outlives its grant after parallel replays of a code', { timeout: 120_000 }, async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const { response } = await tokensFor(owner);
      const answers = await Promise.all(Array.from({ length: PARALLEL }, response));
      const issued = answers.filter((answer) => answer.statusCode === 200).map((answer) => answer.json<{ access_token: string }>().access_token);
      expect(issued.length).toBeLessThanOrEqual(1);
      const statuses = (await Promise.all(issued.map(userinfoStatuses))).flat();
      const left = await orphans();
      revokedGrant.record(statuses.every((status) => status === 401) && left === 0);
      expect(statuses.every((status) => status === 401)).toBe(true);
      expect(left).toBe(0);
    }
  });

  it('23.5: no token outlives its grant after parallel replays of a refresh token', { timeout: 120_000 }, async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const first = (await (await tokensFor(owner)).response()).json<{ refresh_token: string }>();
      const answers = await Promise.all(
        Array.from({ length: PARALLEL }, () => form('/oidc/token', { grant_type: 'refresh_token', refresh_token: first.refresh_token }, basic(owner))),
      );
      const issued = answers.filter((answer) => answer.statusCode === 200).map((answer) => answer.json<{ access_token: string }>().access_token);
      const statuses = (await Promise.all(issued.map(userinfoStatuses))).flat();
      const left = await orphans();
      revokedGrant.record(statuses.every((status) => status === 401) && left === 0);
      expect(statuses.every((status) => status === 401)).toBe(true);
      expect(left).toBe(0);
    }
  });

  it('23.15: a confidential client must use PKCE (RFC 9700 §2.1.1), at the provider and on a direct link', async () => {
    const query = new URLSearchParams({ client_id: owner.clientId, redirect_uri: owner.redirectUri, response_type: 'code', scope: 'openid', state: 'state-1' });
    const provider = await server.app.inject({ method: 'GET', url: `/oidc/auth?${query}` });
    const location = new URL(String(provider.headers.location ?? 'http://invalid/'));
    const refused = location.href.startsWith(owner.redirectUri) && location.searchParams.get('error') === 'invalid_request';
    confidentialPkce.record(refused);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(/PKCE/);
    const link = await server.app.inject({ method: 'GET', url: `${API}/authorize?${query}` });
    confidentialPkce.record(link.statusCode === 400 && link.json<{ error_code: string }>().error_code === 'client.pkce_required');
    expect(link.json()).toMatchObject({ error_code: 'client.pkce_required' });
  });
});
