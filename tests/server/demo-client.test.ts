import crypto from 'node:crypto';
import Fastify, { type FastifyInstance, type HTTPMethods, type LightMyRequestResponse } from 'fastify';
import type Provider from 'oidc-provider';
import type * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { createSecretBox } from '../../server/crypto/secret-box.ts';
import type { Database } from '../../server/db/database.ts';
import { openDatabase } from '../../server/db/open-database.ts';
import { migrate } from '../../server/db/migrate.ts';
import { demoClientRoutes, type DemoClient } from '../../server/demo/demo-client.ts';
import { demoHomePage } from '../../server/demo/demo-pages.ts';
import { registerOidcRoutes } from '../../server/api/oidc-mount.ts';
import { securityHeaders } from '../../server/web/security-headers.ts';
import { completeInteraction } from '../../server/oidc/provider.ts';
import { setClientRefreshTokens, upsertClient } from '../../server/store/clients.ts';
import { insertUser } from '../../server/store/users.ts';
import { CookieJar } from './support/cookie-jar.ts';
import { createBareProvider } from './support/bare-provider.ts';

const PUBLIC_URL = 'http://sso.test';
/** The demo's own origin: a client app never shares the provider's. */
const DEMO_URL = 'http://app.test';
const CLIENTS: DemoClient[] = [
  { clientId: 'sso-account', name: 'Account Area', callbackPath: '/demo/user-management/auth/callback' },
  { clientId: 'sso-dashboard', name: 'Dashboard', secret: 'dashboard-secret', callbackPath: '/demo/auth/callback' },
];


/** Routes the demo's back-channel calls (discovery, token, userinfo) through `app.inject` instead of the network. */
function injectFetch(app: FastifyInstance): oidc.CustomFetch {
  return async (url, options) => {
    const target = new URL(url);
    const body = options.body;
    const payload = typeof body === 'string' ? body : body instanceof URLSearchParams ? body.toString() : body instanceof Uint8Array ? Buffer.from(body) : undefined;
    const response = await app.inject({ method: options.method as HTTPMethods, url: target.pathname + target.search, headers: options.headers, payload });
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      for (const item of Array.isArray(value) ? value : value === undefined ? [] : [String(value)]) headers.append(name, item);
    }
    return new Response(response.statusCode === 204 ? null : new Uint8Array(response.rawPayload), { status: response.statusCode, headers });
  };
}

describe('the demo client app', () => {
  let app: FastifyInstance;
  let demo: FastifyInstance;
  let db: Database;
  let provider: Provider;
  let userId: string;

  beforeAll(async () => {
    const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL, DEMO_URL });
    db = await openDatabase({ kind: 'pglite', dataDir: undefined });
    await migrate(db);
    const box = createSecretBox(crypto.randomBytes(32));
    userId = (await insertUser(db, { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', passwordHash: 'not-a-real-hash' })).id;
    for (const client of CLIENTS) {
      const redirectUris = [new URL(client.callbackPath, DEMO_URL).href];
      await upsertClient(db, box, { clientId: client.clientId, name: client.name ?? '', redirectUris, isPublic: !client.secret, secret: client.secret });
      await setClientRefreshTokens(db, client.clientId, true);
    }
    provider = await createBareProvider({ config, db, box });
    app = Fastify();
    registerOidcRoutes(app, provider, securityHeaders(config));
    // Stands in for the web app: a client's direct link becomes an authorization request; with an interaction it is the login screen.
    app.get('/auth/login', (request, reply) => {
      const query = new URL(request.url, PUBLIC_URL).search;
      if (new URLSearchParams(query).has('interaction')) return reply.type('text/html').send('login screen');
      return reply.redirect(`/oidc/auth${query}`, 303);
    });
    await app.ready();
    demo = Fastify();
    await demo.register(demoClientRoutes({ config, box, db, clients: CLIENTS, customFetch: injectFetch(app) }));
    await demo.ready();
  });
  afterAll(async () => {
    await demo?.close();
    await app?.close();
    await db?.close();
  });

  /** A browser GET: the provider or the demo answers, by the address's origin (relative ones are `base`'s). */
  async function browse(jar: CookieJar, url: string, base = DEMO_URL): Promise<LightMyRequestResponse> {
    const target = new URL(url, base);
    expect([PUBLIC_URL, DEMO_URL]).toContain(target.origin);
    const server = target.origin === PUBLIC_URL ? app : demo;
    const response = await server.inject({ method: 'GET', url: target.pathname + target.search, headers: { cookie: jar.header(target) } });
    jar.store(response.headers['set-cookie']);
    return response;
  }

  const location = (response: LightMyRequestResponse) => String(response.headers.location ?? '');

  /** Clicks "Sign in" and follows the browser up to the web app's login screen; returns the login link the demo built. */
  async function startSignIn(jar: CookieJar, clientId: string): Promise<{ link: URL; interaction: string }> {
    const start = await browse(jar, `/demo/login?client=${clientId}`);
    expect(start.statusCode).toBe(303);
    const link = new URL(location(start));
    const authorize = await browse(jar, location(await browse(jar, link.href)), PUBLIC_URL);
    const interaction = new URL(location(authorize), PUBLIC_URL).searchParams.get('interaction') ?? '';
    return { link, interaction };
  }

  it.each(CLIENTS)('signs in through $name and shows who is signed in', async (client) => {
    const jar = new CookieJar();
    const home = await browse(jar, '/demo/');
    expect(home.body).toContain('Demo client app');
    expect(home.body).not.toContain('Signed in as');

    const { link, interaction } = await startSignIn(jar, client.clientId);
    expect(Object.fromEntries(link.searchParams)).toMatchObject({
      client_id: client.clientId,
      redirect_uri: `${DEMO_URL}${client.callbackPath}`,
      scope: 'openid email profile company',
      code_challenge_method: 'S256',
      state: expect.any(String),
      nonce: expect.any(String),
      code_challenge: expect.any(String),
    });
    const callback = await browse(jar, (await completeInteraction(provider, interaction, userId)).returnTo);
    expect(new URL(location(callback)).pathname).toBe(client.callbackPath);

    const signedIn = await browse(jar, location(callback));
    expect(signedIn.statusCode).toBe(303);
    expect(location(signedIn)).toBe('/demo/');
    const page = await browse(jar, '/demo/');
    expect(page.body).toContain('Signed in as <strong>ada@example.com</strong>');
    expect(page.body).toContain(`<tr><th>sub</th><td>${userId}</td></tr>`);
    expect(page.body).toContain(`<tr><th>aud</th><td>${client.clientId}</td></tr>`);
    expect(page.body).toContain('<tr><th>email</th><td>ada@example.com</td></tr>');

    await browse(jar, '/demo/logout');
    expect((await browse(jar, '/demo/')).body).not.toContain('Signed in as');
  });

  it.each(CLIENTS)('"Refresh my session" through $name shows a new access token each time', async (client) => {
    const jar = new CookieJar();
    const { interaction } = await startSignIn(jar, client.clientId);
    const callback = await browse(jar, (await completeInteraction(provider, interaction, userId)).returnTo);
    await browse(jar, location(callback));
    const preview = (html: string) => /data-testid="access-token">([^<]+)</.exec(html)?.[1];
    const first = await browse(jar, '/demo/');
    expect(first.body).toContain('Refresh my session');
    const tokens = [preview(first.body)];
    for (const round of [1, 2]) {
      const refresh = await demo.inject({
        method: 'POST',
        url: '/demo/refresh',
        headers: { cookie: jar.header(new URL('/demo/refresh', DEMO_URL)), 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });
      jar.store(refresh.headers['set-cookie']);
      expect(refresh.statusCode).toBe(303);
      const page = await browse(jar, '/demo/');
      expect(page.body).toContain(`refreshed ${round} time`);
      tokens.push(preview(page.body));
    }
    expect(new Set(tokens).size).toBe(3);
    expect(tokens.every(Boolean)).toBe(true);
  });

  it('keeps the sign-in state in a sealed, HttpOnly, SameSite=Lax cookie', async () => {
    const response = await demo.inject({ method: 'GET', url: '/demo/login?client=sso-account' });
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/^demo_flow=v1\./);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/demo');
    expect(cookie).not.toContain(new URL(location(response)).searchParams.get('state') ?? '');
  });

  it('starts a sign-in of its own, once, when a callback brings a code for a sign-in it did not start (a direct sign-up)', async () => {
    const restart = await browse(new CookieJar(), '/demo/auth/callback?code=anything&state=anything');
    expect(restart.statusCode).toBe(303);
    expect(location(restart)).toBe('/demo/login?client=sso-dashboard&again=1');
    const started = await demo.inject({ method: 'GET', url: location(restart) });
    const state = new URL(location(started)).searchParams.get('state') ?? '';
    expect(state).toMatch(/^again\./);
    // The second try came back without its cookie too: plain words and a way on, never a loop.
    const refused = await browse(new CookieJar(), `/demo/auth/callback?code=anything&state=${encodeURIComponent(state)}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('We could not sign you in');
    expect(refused.body).toContain('this browser does not keep the app&#39;s cookies');
    expect(refused.body).toContain('href="/demo/login?client=sso-dashboard">Sign in again</a>');
    expect(refused.body).not.toContain('session_expired');
  });

  it('shows what the provider refused in plain words, never its codes or descriptions', async () => {
    const jar = new CookieJar();
    const { link } = await startSignIn(jar, 'sso-account');
    const query = new URLSearchParams({
      error: 'access_denied',
      error_description: '<script>alert(1)</script>',
      state: link.searchParams.get('state') ?? '',
      iss: PUBLIC_URL,
    });
    const response = await browse(jar, `/demo/user-management/auth/callback?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('The sign-in was cancelled or refused. Please sign in again.');
    expect(response.body).not.toContain('access_denied');
    expect(response.body).not.toContain('alert(1)');
  });

  it('takes a third-party-initiated login from our provider (iss, login_hint, prompt=create) and refuses another issuer', async () => {
    const query = new URLSearchParams({ client: 'sso-account', iss: PUBLIC_URL, login_hint: 'ada@example.com', prompt: 'create' });
    const response = await demo.inject({ method: 'GET', url: `/demo/login?${query}` });
    expect(response.statusCode).toBe(303);
    const target = new URL(location(response));
    expect(target.pathname).toBe('/auth/register');
    expect(target.searchParams.get('username')).toBe('ada@example.com');
    expect(target.searchParams.get('prompt')).toBe('create');
    expect(target.searchParams.get('code_challenge_method')).toBe('S256');
    const foreign = await demo.inject({ method: 'GET', url: '/demo/login?client=sso-account&iss=https%3A%2F%2Fevil.example' });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.body).toContain('This sign-in link came from a sign-in service this app does not use.');
    expect(foreign.headers['set-cookie']).toBeUndefined();
  });

  it('refuses to start a sign-in for a client it does not know', async () => {
    const response = await demo.inject({ method: 'GET', url: '/demo/login?client=nobody' });
    expect(response.statusCode).toBe(400);
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('escapes ID token claims on the home page', () => {
    const html = demoHomePage([], { clientId: 'c', email: '<b>x</b>@example.com', claims: { name: '<img src=x onerror=alert(1)>' } });
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;@example.com');
    expect(html).not.toContain('<img');
  });
});
