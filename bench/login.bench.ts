/**
 * `npm run bench`: logins per second through the full login path (encrypted credentials → authorization code)
 * against argon2id-only verifications per second, measured in the same run at the same concurrency.
 * The ratio tells how much the rest of the path costs on top of the password hash; the goal is ≥ 0.9.
 */
import os from 'node:os';
import { verify } from '@node-rs/argon2';
import { hashPassword } from '../server/auth/passwords.ts';
import { openLoginScreen, TestBrowser } from '../tests/server/support/sign-in.ts';
import { testBackends } from '../tests/server/support/databases.ts';
import { startTestApp } from '../tests/server/support/test-app.ts';

const LOGINS = Number(process.env.BENCH_LOGINS ?? 120);
/** As many logins in flight as argon2 has threads to run them on (libuv's pool, capped by cores). */
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? Math.max(2, os.availableParallelism()));
const API = '/api/sso/v3';

async function inParallel<T>(items: T[], worker: (item: T) => Promise<void>): Promise<number> {
  const queue = [...items];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await worker(item);
    }),
  );
  return (performance.now() - started) / 1000;
}

/**
 * The embedded database on disk, as `npm start` runs it; `BENCH_DATABASE=postgres` (with TEST_DATABASE_URL set)
 * measures PostgreSQL, `pglite` the in-memory embedded database.
 */
const BACKEND = process.env.BENCH_DATABASE ?? 'pglite-disk';

async function main(): Promise<void> {
  const backend = testBackends().find((candidate) => candidate.name === BACKEND);
  if (!backend) throw new Error(`no ${BACKEND} backend: set TEST_DATABASE_URL to bench PostgreSQL`);
  const server = await startTestApp({ backend });
  const { email, password } = server.user;

  // Untimed: each simulated browser opens the login screen and encrypts its password, as a browser would.
  const prepared = [];
  for (let index = 0; index < LOGINS; index += 1) {
    const browser = new TestBrowser(server.app);
    await openLoginScreen(browser, server.publicClient);
    prepared.push({ browser, encrypted: await browser.encrypt(password) });
  }

  const hash = await hashPassword(password);
  const argonSeconds = await inParallel(prepared, async () => {
    if (!(await verify(hash, password))) throw new Error('argon2 verify failed');
  });

  const loginSeconds = await inParallel(prepared, async ({ browser, encrypted }) => {
    const login = await browser.request('POST', `${API}/auth/login`, { email, password: encrypted });
    if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
    const resume = await browser.request('GET', login.json<{ redirect_to: string }>().redirect_to);
    const callback = new URL(String(resume.headers.location));
    if (!callback.searchParams.get('code')) throw new Error(`no code in ${callback.href}`);
  });

  const loginsPerSecond = LOGINS / loginSeconds;
  const verifiesPerSecond = LOGINS / argonSeconds;
  process.stdout.write(
    [
      `database: ${BACKEND}, logins: ${LOGINS}, concurrency: ${CONCURRENCY}, cores: ${os.availableParallelism()}`,
      `full login path (encrypted credentials -> code): ${loginsPerSecond.toFixed(1)} logins/s`,
      `argon2id verify only (m=19456 KiB, t=2, p=1):    ${verifiesPerSecond.toFixed(1)} verifies/s`,
      `ratio: ${(loginsPerSecond / verifiesPerSecond).toFixed(3)} (goal >= 0.9; Keycloak's published sizing is about 0.22)`,
    ].join('\n') + '\n',
  );
  await server.close();
}

await main();
