/**
 * `npm run bench:scale`: full sign-ins per second (password, authenticator-app setup, code for tokens, over real
 * HTTP) against one server process, and against two processes behind HAProxy, on the same PostgreSQL and machine.
 * Prints both rates and their ratio; the goal is ≥ 0.95 (two processes lose nothing to the balancer and the shared
 * database). `BENCH_SMOKE=1` runs a handful of sign-ins only, to prove the benchmark works (CI).
 * Needs PostgreSQL (`BENCH_DATABASE_URL` or `TEST_DATABASE_URL`) and HAProxy (/usr/sbin/haproxy, or `HAPROXY_PATH`):
 * without HAProxy it says so, and how to install it, before starting anything; on any failure every process it
 * started is stopped before it exits.
 */
import { addUser } from '../server/admin/operations.ts';
import { DEMO_CLIENTS } from '../server/admin/seed.ts';
import { createSecretBox } from '../server/crypto/secret-box.ts';
import { findClient } from '../server/store/clients.ts';
import { haproxyProblem, startCluster, type Cluster } from '../tests/scale/support/cluster.ts';
import { HttpBrowser } from '../tests/scale/support/http-client.ts';
import { signInOverHttp } from '../tests/scale/support/sign-in-flow.ts';

const SMOKE = process.env.BENCH_SMOKE === '1';
const SIGN_INS = Number(process.env.BENCH_SIGN_INS ?? (SMOKE ? 4 : 60));
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? (SMOKE ? 2 : 8));
const PASSWORD = 'Bench-Passw0rd!';

/** Runs `SIGN_INS` sign-ins of fresh users, `CONCURRENCY` at a time, through `base`; returns sign-ins per second. */
async function measure(cluster: Cluster, base: string, label: string): Promise<number> {
  const dashboard = DEMO_CLIENTS[1];
  const box = createSecretBox(Buffer.from(cluster.masterKey, 'base64url'));
  const registered = (await findClient(cluster.db, box, dashboard.clientId))!;
  // The demo apps live on an origin of their own (DEMO_URL): their callback is the one the seed registered.
  const client = { clientId: dashboard.clientId, redirectUri: registered.redirectUris[0]!, secret: registered.secret! };
  const emails: string[] = [];
  // Users are made before the clock starts; each signs in once (setting up its authenticator app).
  for (let index = 0; index < SIGN_INS + CONCURRENCY; index += 1) {
    const email = `bench-${label}-${index}@example.com`;
    await addUser({ db: cluster.db }, { email, password: PASSWORD, firstName: 'Bench', lastName: 'User' });
    emails.push(email);
  }
  // A warm-up sign-in per worker, untimed.
  const warmUp = emails.splice(0, CONCURRENCY);
  await Promise.all(warmUp.map((email) => signInOverHttp(new HttpBrowser(base), { client, email, password: PASSWORD })));
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let email = emails.shift(); email !== undefined; email = emails.shift()) {
        await signInOverHttp(new HttpBrowser(base), { client, email, password: PASSWORD });
      }
    }),
  );
  return SIGN_INS / ((performance.now() - started) / 1000);
}

async function run(instances: number): Promise<number> {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!databaseUrl) throw new Error('set BENCH_DATABASE_URL or TEST_DATABASE_URL to a PostgreSQL the benchmark may create schemas in');
  const cluster = await startCluster({ databaseUrl, instances });
  try {
    // One process is measured directly (no balancer in the way); two through HAProxy.
    return await measure(cluster, instances === 1 ? cluster.instances[0]!.url : cluster.url, `${instances}`);
  } finally {
    await cluster.stop();
  }
}

async function main(): Promise<number> {
  const missing = haproxyProblem();
  if (missing) {
    process.stderr.write(`bench:scale: ${missing}\n`);
    return 2;
  }
  const single = await run(1);
  const pair = await run(2);
  const ratio = pair / single;
  const lines = [
    `bench:scale${SMOKE ? ' (smoke: too few sign-ins for a meaningful figure)' : ''}: ${SIGN_INS} full sign-ins, ${CONCURRENCY} at a time`,
    `  1 instance, direct:         ${single.toFixed(2)} sign-ins/s`,
    `  2 instances behind HAProxy: ${pair.toFixed(2)} sign-ins/s`,
    `  ratio 2/1: ${ratio.toFixed(2)} (goal >= 0.95)`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

// run() stops its cluster whatever happens, so by the time a failure lands here no child is left running.
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench:scale: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
