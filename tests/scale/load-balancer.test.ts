import fs from 'node:fs';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import { DEMO_CLIENTS } from '../../server/admin/seed.ts';
import { LIMITS } from '../../server/limits.ts';
import { createSecretBox } from '../../server/crypto/secret-box.ts';
import { findClient } from '../../server/store/clients.ts';
import { runScript, stopServer } from '../server/support/processes.ts';
import { HAPROXY, startCluster, type Cluster } from './support/cluster.ts';
import { HttpBrowser, httpRequest } from './support/http-client.ts';
import { signInOverHttp, type HttpClientApp } from './support/sign-in-flow.ts';

const databaseUrl = process.env.TEST_DATABASE_URL;
const PASSWORD = 'Scale-Passw0rd!';
/** Signing keys are re-read every 2 s here (KEY_REFRESH_SECONDS), so a rotation shows within seconds. */
const KEY_REFRESH_SECONDS = 2;

/** Polls `check` every 200 ms until it holds, failing after `seconds`. */
async function eventually(check: () => Promise<boolean>, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// Needs PostgreSQL (TEST_DATABASE_URL) and HAProxy, both of which .ci/run provides.
describe.skipIf(!databaseUrl || !fs.existsSync(HAPROXY))('two server processes behind HAProxy on one PostgreSQL', { timeout: 240_000 }, () => {
  let cluster: Cluster;
  let client: HttpClientApp;
  let userCount = 0;

  beforeAll(async () => {
    cluster = await startCluster({ databaseUrl: databaseUrl!, instances: 2, env: { KEY_REFRESH_SECONDS: String(KEY_REFRESH_SECONDS) } });
    const dashboard = DEMO_CLIENTS[1];
    const box = createSecretBox(Buffer.from(cluster.masterKey, 'base64url'));
    const registered = (await findClient(cluster.db, box, dashboard.clientId))!;
    // The demo apps live on an origin of their own (DEMO_URL), so their callback is the one the seed registered.
    client = { clientId: dashboard.clientId, redirectUri: registered.redirectUris[0]!, secret: registered.secret! };
  }, 180_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  async function newUser(): Promise<string> {
    userCount += 1;
    const email = `scale-${userCount}-${Date.now()}@example.com`;
    await addUser({ db: cluster.db }, { email, password: PASSWORD, firstName: 'Scale', lastName: 'Test' });
    return email;
  }
  const jwksOf = async (url: string) => JSON.parse((await httpRequest(`${url}/oidc/jwks`)).body) as JSONWebKeySet;

  it('finishes a sign-in started on one instance on the other, its steps alternating between them', async () => {
    const browser = new HttpBrowser(cluster.url);
    const signedIn = await signInOverHttp(browser, { client, email: await newUser(), password: PASSWORD });
    expect(signedIn.idToken).toEqual(expect.any(String));
    expect(new Set(browser.servedBy)).toEqual(new Set(['a', 'b']));
    // Round robin without stickiness: consecutive steps of this one sign-in went to different instances.
    const switches = browser.servedBy.filter((name, index) => index > 0 && name !== browser.servedBy[index - 1]).length;
    expect(switches).toBeGreaterThanOrEqual(browser.servedBy.length / 2);
    const userinfo = await httpRequest(`${cluster.url}/oidc/me`, { headers: { authorization: `Bearer ${signedIn.accessToken}` } });
    expect(userinfo.status).toBe(200);
  });

  it('holds a lockout caused through one instance on the other, and counts per-IP attempts under the real client address', async () => {
    const email = await newUser();
    // This client connects from 127.0.0.2 and claims to be 198.51.100.9; only HAProxy's own entry is believed.
    const browser = new HttpBrowser(cluster.url, '127.0.0.2');
    const attempt = async (password: string) => {
      await browser.request('GET', `/api/sso/v3/authorize?${new URLSearchParams({ client_id: client.clientId, redirect_uri: client.redirectUri, state: 's', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' })}`)
        .then((answer) => browser.request('GET', answer.json<{ redirect_to: string }>().redirect_to));
      const sealed = await browser.encrypt(password);
      // An odd number of requests per attempt, so round robin hands successive logins to alternate instances.
      await browser.request('GET', '/healthz');
      return browser.request('POST', '/api/sso/v3/auth/login', { email, password: sealed }, { 'x-forwarded-for': '198.51.100.9' });
    };
    const wrong: string[] = [];
    // Past the free failures each one doubles the wait (1 s, 2 s, ... 16 s after four more), so the right password
    // below still meets a wait however slowly a loaded machine sends it.
    for (let index = 0; index < LIMITS.LOGIN_FAILURES_BEFORE_DELAY + 4; index += 1) {
      const answer = await attempt('Wrong-Passw0rd!');
      // Past the free failures, an attempt sent before its wait is over is told to wait instead.
      expect(['auth.invalid_credentials', 'auth.too_many_attempts']).toContain(answer.json().error_code);
      wrong.push(answer.servedBy ?? '');
    }
    expect(new Set(wrong)).toEqual(new Set(['a', 'b']));
    // The account now waits: the right password is refused alike by both instances.
    const refusedBy = new Set<string>();
    for (let index = 0; index < 2; index += 1) {
      const answer = await attempt(PASSWORD);
      expect(answer.json().error_code).toBe('auth.too_many_attempts');
      refusedBy.add(answer.servedBy ?? '');
    }
    expect(refusedBy).toEqual(new Set(['a', 'b']));
    const addresses = (await cluster.db.query<{ ip: string }>('select ip from ip_failures')).rows.map((row) => row.ip);
    expect(addresses).toContain('127.0.0.2');
    expect(addresses).not.toContain('198.51.100.9');
  });

  it('signs with a key rotated while both run on both within a minute, and still verifies tokens of the old key', async () => {
    const before = await signInOverHttp(new HttpBrowser(cluster.url), { client, email: await newUser(), password: PASSWORD });
    const oldKid = decodeProtectedHeader(before.idToken).kid;
    const rotate = await runScript('server/cli/sso.ts', ['keys', 'rotate'], cluster.env);
    expect(rotate.code, rotate.stderr).toBe(0);
    const newKid = /signing key ([0-9a-f-]{36}) added/.exec(rotate.stdout)?.[1];
    expect(newKid).toBeDefined();
    expect(newKid).not.toBe(oldKid);
    // Every instance signs with the new key, each of its own accord, without a restart.
    for (const instance of cluster.instances) {
      await eventually(async () => {
        const signedIn = await signInOverHttp(new HttpBrowser(cluster.url), { client, email: await newUser(), password: PASSWORD, tokenBase: instance.url });
        return decodeProtectedHeader(signedIn.idToken).kid === newKid;
      }, 60);
    }
    for (const instance of cluster.instances) {
      const keys = createLocalJWKSet(await jwksOf(instance.url));
      await expect(jwtVerify(before.idToken, keys, { issuer: cluster.url })).resolves.toBeDefined();
    }
  });

  it('loses no acknowledged sign-in when one instance is killed mid-load, and the other sends every mail queued before the kill', async () => {
    const emails = await Promise.all(Array.from({ length: 24 }, () => newUser()));
    const acknowledged: Array<{ email: string; accessToken: string }> = [];
    const failed: string[] = [];
    let killed = false;
    let killedAt = new Date(0);
    const [victim] = cluster.instances;
    // Each user signs in (setting up an authenticator app) and asks for a password-reset mail, 4 at a time.
    const queue = [...emails];
    const worker = async () => {
      for (let email = queue.shift(); email !== undefined; email = queue.shift()) {
        await httpRequest(`${cluster.url}/api/sso/v3/password/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) }).catch(() => undefined);
        try {
          const signedIn = await signInOverHttp(new HttpBrowser(cluster.url), { client, email, password: PASSWORD });
          acknowledged.push({ email, accessToken: signedIn.accessToken });
        } catch {
          failed.push(email);
        }
        if (!killed && acknowledged.length >= 6) {
          killed = true;
          killedAt = new Date();
          await stopServer(victim!.child, 'SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    expect(killed).toBe(true);
    expect(acknowledged.length).toBeGreaterThan(emails.length / 2);

    // Every acknowledged sign-in holds: its token works (served by the survivor) and its second factor is stored.
    for (const { accessToken } of acknowledged) {
      const userinfo = await httpRequest(`${cluster.url}/oidc/me`, { headers: { authorization: `Bearer ${accessToken}` } });
      expect(userinfo.status).toBe(200);
      expect(userinfo.servedBy).toBe('b');
    }
    const factors = await cluster.db.query<{ email: string }>(
      'select u.email from users u join mfa_factors f on f.user_id = u.id where u.email = any($1)',
      [acknowledged.map((entry) => entry.email)],
    );
    expect(new Set(factors.rows.map((row) => row.email)).size).toBe(acknowledged.length);

    // Every message queued before the kill is sent (those the killed instance held are sent by the survivor once
    // their lease runs out), and reaches the SMTP server.
    const queued = await cluster.db.query<{ id: string }>('select id from outbox where created_at < $1', [killedAt]);
    expect(queued.rows.length).toBeGreaterThan(0);
    await eventually(async () => {
      const unsent = await cluster.db.query('select 1 from outbox where created_at < $1 and sent_at is null', [killedAt]);
      return unsent.rows.length === 0;
    }, 120);
    // Every message marked sent reached the SMTP server: it received at least as many as were queued before the kill
    // (a user gets several: the reset code, and the notices of a new browser and of a factor added).
    expect(cluster.smtp.messages.length).toBeGreaterThanOrEqual(queued.rows.length);
    const mailed = new Set(cluster.smtp.messages.flatMap((message) => message.to));
    expect(acknowledged.every(({ email }) => mailed.has(email.toLowerCase()))).toBe(true);
  });
});
