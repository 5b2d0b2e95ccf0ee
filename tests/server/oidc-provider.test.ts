import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { decodeProtectedHeader } from 'jose';
import type Provider from 'oidc-provider';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { createSecretBox } from '../../server/crypto/secret-box.ts';
import type { Database } from '../../server/db/database.ts';
import { openDatabase } from '../../server/db/open-database.ts';
import { migrate } from '../../server/db/migrate.ts';
import { registerOidcRoutes } from '../../server/api/oidc-mount.ts';
import { securityHeaders } from '../../server/web/security-headers.ts';
import { InteractionNotFoundError, completeInteraction, findInteraction } from '../../server/oidc/provider.ts';
import { upsertClient } from '../../server/store/clients.ts';
import { setClientFirstParty } from '../../server/store/client-security.ts';
import { insertUser } from '../../server/store/users.ts';
import { createBareProvider } from './support/bare-provider.ts';
import { CookieJar } from './support/cookie-jar.ts';

/** What openid-client throws for a 401 answered with a WWW-Authenticate challenge carrying `error`. */
const challenge = (error: string) => ({ status: 401, cause: [expect.objectContaining({ parameters: expect.objectContaining({ error }) })] });

interface Server {
  origin: string;
  provider: Provider;
  db: Database;
  userId: string;
  close(): Promise<void>;
}

const CONFIDENTIAL_SECRET = 'a-confidential-client-secret';

/** A fresh database with one user and a public and a confidential client, and a provider whose issuer is `origin`. */
async function setUp(origin: string): Promise<{ provider: Provider; db: Database; userId: string }> {
  const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: origin });
  const db = await openDatabase({ kind: 'pglite', dataDir: undefined });
  await migrate(db);
  const box = createSecretBox(crypto.randomBytes(32));
  const user = await insertUser(db, { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', passwordHash: 'not-a-real-hash' });
  const redirectUris = [`${origin}/cb`];
  await upsertClient(db, box, { clientId: 'public-app', name: 'Public app', redirectUris, isPublic: true, secret: undefined });
  await upsertClient(db, box, { clientId: 'confidential-app', name: 'Confidential app', redirectUris, isPublic: false, secret: CONFIDENTIAL_SECRET });
  // The product's own apps: this file is about the provider's protocol and session, not the consent a third-party
  // app asks for (tests/server/app-consent.test.ts).
  for (const clientId of ['public-app', 'confidential-app']) await setClientFirstParty(db, clientId, true);
  const provider = await createBareProvider({ config, db, box });
  return { provider, db, userId: user.id };
}

async function startServer(): Promise<Server> {
  // Listen first, so the issuer can name the real port before the app is built.
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { provider, db, userId } = await setUp(origin);
  const app: FastifyInstance = Fastify({
    serverFactory: (handler) => {
      server.on('request', handler);
      return server;
    },
  });
  registerOidcRoutes(app, provider, securityHeaders({ publicUrl: origin }));
  await app.ready();
  return {
    origin,
    provider,
    db,
    userId,
    async close() {
      await app.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    },
  };
}

describe('the OpenID Connect provider', () => {
  let server: Server;
  let publicClient: oidc.Configuration;
  let confidentialClient: oidc.Configuration;

  beforeAll(async () => {
    server = await startServer();
    const options = { execute: [oidc.allowInsecureRequests] };
    const metadata = {};
    publicClient = await oidc.discovery(new URL(server.origin), 'public-app', metadata, oidc.None(), options);
    confidentialClient = await oidc.discovery(new URL(server.origin), 'confidential-app', metadata, oidc.ClientSecretBasic(CONFIDENTIAL_SECRET), options);
  });
  afterAll(async () => {
    await server?.close();
  });

  const redirectUri = () => `${server.origin}/cb`;

  async function browse(jar: CookieJar, url: string): Promise<Response> {
    const target = new URL(url, server.origin);
    const response = await fetch(target, { redirect: 'manual', headers: { cookie: jar.header(target) } });
    jar.store(response.headers.getSetCookie());
    return response;
  }

  /** The PKCE values and authorization parameters one sign-in uses. */
  async function newRequest(extra: Record<string, string> = {}) {
    const verifier = oidc.randomPKCECodeVerifier();
    const params: Record<string, string> = {
      redirect_uri: redirectUri(),
      scope: 'openid email profile',
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      ...extra,
    };
    return { verifier, params };
  }

  /** Runs the browser through authorization, a stand-in login, and back; returns the callback URL with the code. */
  async function signIn(client: oidc.Configuration, params: Record<string, string>, jar = new CookieJar()): Promise<URL> {
    const start = await browse(jar, oidc.buildAuthorizationUrl(client, params).href);
    expect(start.status).toBe(303);
    const login = new URL(start.headers.get('location') ?? '', server.origin);
    expect(login.pathname).toBe('/auth/login');
    const { returnTo } = await completeInteraction(server.provider, login.searchParams.get('interaction') ?? '', server.userId);
    const resumed = await browse(jar, returnTo);
    expect(resumed.status).toBe(303);
    return new URL(resumed.headers.get('location') ?? '');
  }

  it('advertises RS256 (OpenID Connect Discovery §3), PS256 and ES256 ID tokens, S256 PKCE and every endpoint under /oidc in discovery', () => {
    const metadata = publicClient.serverMetadata();
    expect(metadata.issuer).toBe(server.origin);
    expect([...(metadata.id_token_signing_alg_values_supported ?? [])].sort()).toEqual(['ES256', 'PS256', 'RS256']);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    for (const endpoint of ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint', 'jwks_uri', 'end_session_endpoint', 'revocation_endpoint'] as const) {
      expect(metadata[endpoint]).toMatch(new RegExp(`^${server.origin}/oidc/`));
    }
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['openid', 'email', 'profile']));
  });

  it('publishes only the public half of its signing keys: one RSA (RS256, PS256), one P-256 (ES256)', async () => {
    const jwks = (await (await fetch(publicClient.serverMetadata().jwks_uri ?? '')).json()) as { keys: Array<Record<string, unknown>> };
    expect(jwks.keys.map((key) => key.kty).sort()).toEqual(['EC', 'RSA']);
    expect(jwks.keys.find((key) => key.kty === 'EC')).toMatchObject({ crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(jwks.keys.find((key) => key.kty === 'RSA')).toMatchObject({ use: 'sig' });
    for (const key of jwks.keys) {
      for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(key).not.toHaveProperty(secret);
    }
  });

  it('signs a user in with PKCE and issues an RS256 ID token (the default) and the profile at userinfo, its address unproven (an account made without a code or link)', async () => {
    const { verifier, params } = await newRequest();
    const callback = await signIn(publicClient, params);
    expect(callback.origin + callback.pathname).toBe(redirectUri());
    const tokens = await oidc.authorizationCodeGrant(publicClient, callback, {
      pkceCodeVerifier: verifier,
      expectedState: params.state,
      expectedNonce: params.nonce,
    });
    expect(decodeProtectedHeader(tokens.id_token ?? '').alg).toBe('RS256');
    expect(tokens.claims()).toMatchObject({
      iss: server.origin,
      aud: 'public-app',
      sub: server.userId,
      nonce: params.nonce,
      email: 'ada@example.com',
      email_verified: false,
      name: 'Ada Lovelace',
    });
    expect(await oidc.fetchUserInfo(publicClient, tokens.access_token, server.userId)).toEqual({
      sub: server.userId,
      email: 'ada@example.com',
      email_verified: false,
      given_name: 'Ada',
      family_name: 'Lovelace',
      name: 'Ada Lovelace',
    });
  });

  it('returns the state unchanged, whatever characters it holds', async () => {
    const state = 'x y/+=?&é%20<>"\'';
    const { params } = await newRequest({ state });
    const callback = await signIn(publicClient, params);
    expect(callback.searchParams.get('state')).toBe(state);
  });

  it('signs in to a second client silently on the provider session, without another interaction', async () => {
    const jar = new CookieJar();
    await signIn(publicClient, (await newRequest()).params, jar);
    const { verifier, params } = await newRequest();
    const response = await browse(jar, oidc.buildAuthorizationUrl(confidentialClient, params).href);
    const callback = new URL(response.headers.get('location') ?? '');
    expect(callback.searchParams.get('code')).toBeTruthy();
    const tokens = await oidc.authorizationCodeGrant(confidentialClient, callback, { pkceCodeVerifier: verifier, expectedState: params.state, expectedNonce: params.nonce });
    expect(tokens.claims()?.sub).toBe(server.userId);
  });

  it('finishes a request that asked for prompt=consent after one login', async () => {
    const { params } = await newRequest({ prompt: 'consent' });
    const callback = await signIn(publicClient, params);
    expect(callback.searchParams.get('code')).toBeTruthy();
  });

  it('refuses a public client that does not use PKCE', async () => {
    const { params } = await newRequest();
    const { code_challenge: _c, code_challenge_method: _m, ...withoutPkce } = params;
    const response = await browse(new CookieJar(), oidc.buildAuthorizationUrl(publicClient, withoutPkce).href);
    const callback = new URL(response.headers.get('location') ?? '');
    expect(callback.searchParams.get('error')).toBe('invalid_request');
    expect(callback.searchParams.get('error_description')).toMatch(/PKCE/);
  });

  it('refuses the plain PKCE method', async () => {
    const { params } = await newRequest({ code_challenge: oidc.randomPKCECodeVerifier(), code_challenge_method: 'plain' });
    const response = await browse(new CookieJar(), oidc.buildAuthorizationUrl(publicClient, params).href);
    const callback = new URL(response.headers.get('location') ?? '');
    expect(callback.searchParams.get('error')).toBe('invalid_request');
    expect(callback.searchParams.get('code')).toBeNull();
  });

  it('shows an error page, and does not redirect, when redirect_uri is not registered', async () => {
    const { params } = await newRequest({ redirect_uri: 'https://attacker.example/cb' });
    const response = await browse(new CookieJar(), oidc.buildAuthorizationUrl(publicClient, params).href);
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    const html = await response.text();
    expect(html).toContain('<title>Error</title>');
    // A person reads plain words with a way on, never the OAuth error code (issue 27.16).
    expect(html).toContain('This sign-in could not start');
    expect(html).not.toContain('invalid_redirect_uri');
    expect(html).not.toContain('attacker.example');
  });

  it('refuses a second use of a code and revokes the access token the first use issued', async () => {
    const { verifier, params } = await newRequest();
    const callback = await signIn(publicClient, params);
    const checks = { pkceCodeVerifier: verifier, expectedState: params.state, expectedNonce: params.nonce };
    const first = await oidc.authorizationCodeGrant(publicClient, callback, checks);
    await expect(oidc.fetchUserInfo(publicClient, first.access_token, server.userId)).resolves.toMatchObject({ sub: server.userId });
    await expect(oidc.authorizationCodeGrant(publicClient, callback, checks)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(oidc.fetchUserInfo(publicClient, first.access_token, server.userId)).rejects.toMatchObject(challenge('invalid_token'));
  });

  it('requires the confidential client to authenticate with its secret', async () => {
    const { verifier, params } = await newRequest();
    const callback = await signIn(confidentialClient, params);
    const checks = { pkceCodeVerifier: verifier, expectedState: params.state, expectedNonce: params.nonce };
    const impostor = await oidc.discovery(new URL(server.origin), 'confidential-app', {}, oidc.ClientSecretBasic('wrong'), {
      execute: [oidc.allowInsecureRequests],
    });
    await expect(oidc.authorizationCodeGrant(impostor, callback, checks)).rejects.toMatchObject(challenge('invalid_client'));
    const tokens = await oidc.authorizationCodeGrant(confidentialClient, callback, checks);
    expect(tokens.claims()?.sub).toBe(server.userId);
  });

  it('refuses an expired authorization code', async () => {
    const { verifier, params } = await newRequest();
    const callback = await signIn(publicClient, params);
    await server.db.query("update oidc_payloads set expires_at = now() - interval '1 second' where model = 'AuthorizationCode'");
    await expect(
      oidc.authorizationCodeGrant(publicClient, callback, { pkceCodeVerifier: verifier, expectedState: params.state, expectedNonce: params.nonce }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('describes a pending interaction by uid and refuses to complete an unknown one', async () => {
    const { params } = await newRequest();
    const start = await browse(new CookieJar(), oidc.buildAuthorizationUrl(publicClient, params).href);
    const uid = new URL(start.headers.get('location') ?? '', server.origin).searchParams.get('interaction') ?? '';
    expect(await findInteraction(server.provider, uid)).toMatchObject({ uid, clientId: 'public-app', prompt: 'login', params: { state: params.state } });
    expect(await findInteraction(server.provider, 'no-such-interaction')).toBeUndefined();
    await expect(completeInteraction(server.provider, 'no-such-interaction', server.userId)).rejects.toBeInstanceOf(InteractionNotFoundError);
  });
});
