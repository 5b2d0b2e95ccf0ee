import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { calculatePKCECodeChallenge, randomPKCECodeVerifier } from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CLIENTS, DEMO_USER, seedDemo } from '../../server/admin/seed.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { createSecretBox } from '../../server/crypto/secret-box.ts';
import type { Database } from '../../server/db/database.ts';
import { testBackends } from './support/databases.ts';
import { exchangeCode, submitLogin, TestBrowser } from './support/sign-in.ts';

const postgres = testBackends().find((backend) => backend.name === 'postgres');
const PUBLIC_URL = 'http://localhost:8080';

describe.runIf(postgres)('several server processes sharing one PostgreSQL', () => {
  let db: Database;
  let first: FastifyInstance;
  let second: FastifyInstance;
  let demoUrl: string;
  beforeAll(async () => {
    db = await postgres!.open();
    // Not about the second factor: this user signs in on the password alone (MFA is tested in tests/server/mfa-*.test.ts).
    const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL, MFA_REQUIRED: 'false' });
    demoUrl = config.demo.url;
    const masterKey = crypto.randomBytes(32);
    await seedDemo({ db, box: createSecretBox(masterKey), config });
    first = (await buildApp({ config, db, masterKey })).app;
    second = (await buildApp({ config, db, masterKey })).app;
  });
  afterAll(async () => {
    await first.close();
    await second.close();
    await db.close();
  });

  it('lets a sign-in start on one process, continue on another and finish with a token from the first', async () => {
    const browsers = { first: new TestBrowser(first), second: new TestBrowser(second) };
    // One browser, whose requests a load balancer spreads over two processes: share the cookie jar.
    Object.assign(browsers.second, { jar: browsers.first.jar });
    const client = DEMO_CLIENTS[0];
    const redirectUri = new URL(client.callbackPath, demoUrl).href;
    const verifier = randomPKCECodeVerifier();
    const query = new URLSearchParams({
      client_id: client.clientId,
      redirect_uri: redirectUri,
      state: 'spread',
      code_challenge: await calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const authorize = await browsers.first.request('GET', `/api/sso/v3/authorize?${query}`);
    const toLogin = await browsers.second.request('GET', authorize.json().redirect_to);
    const interaction = new URL(String(toLogin.headers.location), PUBLIC_URL).searchParams.get('interaction');
    expect((await browsers.first.request('GET', `/api/sso/v3/authorize?interaction=${interaction}`)).json().challenge).toBe('LOGIN_REQUIRED');
    const login = await submitLogin(browsers.second, DEMO_USER.email, DEMO_USER.password);
    expect(login.statusCode).toBe(200);
    const resume = await browsers.first.request('GET', login.json().redirect_to);
    const callback = new URL(String(resume.headers.location));
    expect(callback.searchParams.get('state')).toBe('spread');

    const token = await exchangeCode(second, { clientId: client.clientId, redirectUri }, callback, verifier);
    expect(token.statusCode).toBe(200);
    expect(token.json()).toMatchObject({ token_type: 'Bearer', id_token: expect.any(String), access_token: expect.any(String) });
  });
});
