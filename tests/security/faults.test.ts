import crypto from 'node:crypto';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/open-database.ts';
import { migrate } from '../../server/db/migrate.ts';
import { capturingMailer } from '../server/support/fakes.ts';
import { browserAtSignIn, submitRegistration, submitRegistrationCode } from '../server/support/registration.ts';
import { TestBrowser } from '../server/support/sign-in.ts';
import { startTestApp, type TestApp } from '../server/support/test-app.ts';
import { campaignCounter } from './support/campaign.ts';

const API = '/api/sso/v3';
const DATABASE_URL = process.env.TEST_DATABASE_URL;
/** How long the database stays out of reach, and how soon service must be back once it returns. */
const OUTAGE_MS = 3_000;
const RECOVERY_LIMIT_MS = 30_000;

/** A TCP proxy in front of PostgreSQL that the test can cut (drop every connection, refuse new ones) and restore. */
async function startCuttableProxy(target: { host: string; port: number }) {
  const open = new Set<net.Socket>();
  let refusing = false;
  const server = net.createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut() {
      refusing = true;
      for (const socket of open) socket.destroy();
    },
    restore() {
      refusing = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(!DATABASE_URL)('PostgreSQL going away mid-load', () => {
  const counter = campaignCounter('database outage (answers that were a 500, or a 503 without Retry-After)');
  const mail = capturingMailer();
  const schema = `test_fault_${crypto.randomBytes(4).toString('hex')}`;
  let proxy: Awaited<ReturnType<typeof startCuttableProxy>>;
  let server: TestApp;
  let unavailable = 0;

  beforeAll(async () => {
    const direct = new URL(DATABASE_URL!);
    proxy = await startCuttableProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const proxied = new URL(DATABASE_URL!);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    server = await startTestApp({
      mailer: mail.mailer,
      env: { MFA_REQUIRED: 'false' },
      backend: {
        name: 'postgres',
        async open() {
          const db = await openDatabase({ kind: 'postgres', url: proxied.href, schema });
          await migrate(db);
          return db;
        },
      },
    });
  }, 120_000);
  afterAll(async () => {
    counter.print();
    proxy.restore();
    await server?.db.query(`drop schema if exists ${schema} cascade`).catch(() => undefined);
    await server?.close();
    await proxy?.close();
  });

  /** Checks one answer: never a 500, and a 503 says when to come back. */
  function check(response: LightMyRequestResponse): void {
    const ok = response.statusCode !== 500 && (response.statusCode !== 503 || Number(response.headers['retry-after']) > 0);
    counter.record(ok);
    if (response.statusCode === 503) unavailable += 1;
    if (!ok) throw new Error(`${response.statusCode} ${String(response.headers['retry-after'])} ${response.body.slice(0, 200)}`);
  }

  /** One sign-in as far as the client's redirect, every answer checked; true when it got there. */
  async function signInOnce(): Promise<boolean> {
    const browser = new TestBrowser(server.app);
    const link = new URLSearchParams({ client_id: server.publicClient.clientId, redirect_uri: server.publicClient.redirectUri, state: 's', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' });
    const authorize = await browser.request('GET', `${API}/authorize?${link}`);
    check(authorize);
    if (authorize.statusCode !== 200) return false;
    const provider = await browser.request('GET', authorize.json<{ redirect_to: string }>().redirect_to);
    check(provider);
    if (!provider.headers.location) return false;
    const login = await browser.request('POST', `${API}/auth/login`, { email: server.user.email, password: await browser.encrypt(server.user.password).catch(() => 'unreadable') });
    check(login);
    return login.statusCode === 200;
  }

  /** One sign-up through its emailed code; answers checked. */
  async function signUpOnce(index: number): Promise<void> {
    const email = `fault-${index}@example.com`;
    const browser = await browserAtSignIn(server).catch(() => undefined);
    if (!browser) return;
    const registered = await submitRegistration(browser, { email }).catch(() => undefined);
    if (!registered) return;
    check(registered);
    if (registered.statusCode !== 200) return;
    const code = await mail.latestCode(email).catch(() => undefined);
    if (code) check(await submitRegistrationCode(browser, code));
  }

  it('answers 503 with Retry-After while it is down, writes nothing by halves, and is back within 30 s', { timeout: 120_000 }, async () => {
    let running = true;
    let signUps = 0;
    const workers = [
      (async () => {
        while (running) await signInOnce();
      })(),
      (async () => {
        while (running) await signUpOnce((signUps += 1));
      })(),
      (async () => {
        while (running) {
          check(await server.app.inject({ method: 'GET', url: '/healthz' }));
          await sleep(100);
        }
      })(),
    ];
    await sleep(1_500);
    proxy.cut();
    await sleep(OUTAGE_MS);
    const down = await server.app.inject({ method: 'GET', url: '/healthz' });
    expect(down.statusCode).toBe(503);
    expect(Number(down.headers['retry-after'])).toBeGreaterThan(0);
    proxy.restore();
    const back = performance.now();
    let recovered = false;
    while (!recovered && performance.now() - back < RECOVERY_LIMIT_MS) {
      recovered = (await server.app.inject({ method: 'GET', url: '/healthz' })).statusCode === 200 && (await signInOnce());
      if (!recovered) await sleep(250);
    }
    console.log(`[security] database outage: service back ${((performance.now() - back) / 1000).toFixed(1)} s after the database returned`);
    running = false;
    await Promise.all(workers);
    expect(recovered).toBe(true);
    expect(counter.failed).toBe(0);
    // The load really met the outage.
    expect(unavailable).toBeGreaterThan(0);

    // Every account made is whole: a sign-up either made a complete user or nothing.
    const halves = await server.db.query<{ email: string }>(
      `select email from users where email like 'fault-%' and (password_hash is null or first_name is null or last_name is null)`,
    );
    expect(halves.rows).toEqual([]);
    const orphans = await server.db.query<{ n: number }>(
      `select count(*)::int as n from users u where u.email like 'fault-%'
       and not exists (select 1 from pending_registrations p where p.email_normalized = u.email_normalized and p.completed_at is not null)`,
    );
    expect(orphans.rows[0]?.n).toBe(0);
  });
});
