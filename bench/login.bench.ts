/**
 * `npm run bench`: logins per second through the whole login path against argon2id-only verifications per second,
 * in the same run at the same concurrency, in the default configuration (MFA on, an authenticator-app user:
 * encrypted credentials → TOTP → code) and on the password-only path (MFA_REQUIRED=false), on the embedded
 * database on disk and, with TEST_DATABASE_URL set, on PostgreSQL (BENCH_DATABASE=pglite-disk|pglite|postgres
 * picks one). Prints one table with each figure beside its goal, and per login the database round trips and the
 * main thread's CPU time outside argon2, by stage. BENCH_SMOKE=1 runs a handful of logins, to prove it still runs.
 */
import os from 'node:os';
import { verify } from '@node-rs/argon2';
import { hashPassword } from '../server/auth/passwords.ts';
import { testBackends, type TestBackend } from '../tests/server/support/databases.ts';
import { startTestApp } from '../tests/server/support/test-app.ts';
import { countingBackend } from './support/counting-database.ts';
import { cpuByStage, HARNESS, STAGES } from './support/cpu-stages.ts';
import { BENCH_PASSWORD, completeLogin, outboxSettled, prepareLogins, type LoginRoundTrips, type PreparedLogin } from './support/login-scenario.ts';
import { printTable, type Row } from './support/table.ts';

const SMOKE = process.env.BENCH_SMOKE === '1';
const LOGINS = Number(process.env.BENCH_LOGINS ?? (SMOKE ? 4 : 120));
/** Logins profiled one at a time for the round trips and the CPU split (apart from the timed run, which the profiler would slow). */
const PROFILED = Number(process.env.BENCH_PROFILED_LOGINS ?? (SMOKE ? 2 : 30));
/** As many logins in flight as argon2 has threads to run them on (libuv's pool, capped by cores). */
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? Math.max(2, os.availableParallelism()));
const GOALS = { mfa: 0.8, password: 0.9, passwordStepRoundTrips: 6 };

async function inParallel<T>(items: T[], worker: (item: T) => Promise<unknown>): Promise<number> {
  const queue = [...items];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await worker(item);
    }),
  );
  return (performance.now() - started) / 1000;
}

const PATHS = [
  { key: 'mfa', label: 'MFA on, authenticator app', env: {}, totp: true, goal: GOALS.mfa },
  { key: 'password', label: 'password only (MFA_REQUIRED=false)', env: { MFA_REQUIRED: 'false' }, totp: false, goal: GOALS.password },
] as const;

function chosenBackends(): TestBackend[] {
  const all = testBackends();
  const wanted = process.env.BENCH_DATABASE;
  if (wanted) {
    const backend = all.find((candidate) => candidate.name === wanted);
    if (!backend) throw new Error(`no ${wanted} backend: set TEST_DATABASE_URL to bench PostgreSQL`);
    return [backend];
  }
  return all.filter((backend) => backend.name !== 'pglite');
}

const average = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

async function benchPath(base: TestBackend, path: (typeof PATHS)[number], passwordHash: string): Promise<Row[]> {
  const { backend, counter } = countingBackend(base);
  const server = await startTestApp({ backend, env: path.env });
  try {
    const redirectUri = server.publicClient.redirectUri;
    const timed = await prepareLogins(server, passwordHash, LOGINS, { totp: path.totp, prefix: `${path.key}-timed` });
    const profiled = await prepareLogins(server, passwordHash, PROFILED, { totp: path.totp, prefix: `${path.key}-profiled` });

    const argonSeconds = await inParallel(timed, async () => {
      if (!(await verify(passwordHash, BENCH_PASSWORD))) throw new Error('argon2 verify failed');
    });
    const loginSeconds = await inParallel(timed, (login: PreparedLogin) => completeLogin(login, redirectUri));
    // The timed logins' mail must not be charged to the profiled ones.
    await outboxSettled(server);

    const trips: LoginRoundTrips[] = [];
    const cpu = await cpuByStage(async () => {
      for (const login of profiled) trips.push(await completeLogin(login, redirectUri, { count: () => counter.count, settle: () => outboxSettled(server, () => counter.count) }));
    });

    const logins = LOGINS / loginSeconds;
    const verifies = LOGINS / argonSeconds;
    const ratio = logins / verifies;
    const where = `${base.name}, ${path.label}`;
    const perLogin = (ms: number | undefined) => `${((ms ?? 0) / PROFILED).toFixed(2)} ms`;
    const serverCpu = STAGES.reduce((sum, stage) => sum + (cpu.get(stage) ?? 0), 0);
    const passwordTrips = average(trips.map((trip) => trip.password));
    return [
      { section: where, figure: 'logins/s (whole path)', value: logins.toFixed(1) },
      { section: where, figure: 'argon2id verifies/s (same concurrency)', value: verifies.toFixed(1) },
      { section: where, figure: 'ratio', value: ratio.toFixed(3), goal: `≥ ${path.goal}`, met: ratio >= path.goal },
      { section: where, figure: 'round trips: password step', value: passwordTrips.toFixed(1), goal: `≤ ${GOALS.passwordStepRoundTrips}`, met: passwordTrips <= GOALS.passwordStepRoundTrips },
      ...(path.totp ? [{ section: where, figure: 'round trips: authenticator code step', value: average(trips.map((trip) => trip.secondFactor)).toFixed(1) }] : []),
      { section: where, figure: 'round trips: provider resume → code', value: average(trips.map((trip) => trip.resume)).toFixed(1) },
      { section: where, figure: 'round trips: mail sent after the answer (outbox)', value: average(trips.map((trip) => trip.background)).toFixed(1) },
      { section: where, figure: 'round trips: whole login', value: average(trips.map((trip) => trip.password + trip.secondFactor + trip.resume + trip.background)).toFixed(1) },
      ...STAGES.map((stage) => ({ section: where, figure: `CPU per login: ${stage}`, value: perLogin(cpu.get(stage)) })),
      { section: where, figure: 'CPU per login: server, outside argon2', value: perLogin(serverCpu) },
      { section: where, figure: `CPU per login: ${HARNESS}`, value: perLogin(cpu.get(HARNESS)) },
    ];
  } finally {
    await server.close();
  }
}

async function main(): Promise<void> {
  const backends = chosenBackends();
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const rows: Row[] = [];
  for (const backend of backends) for (const path of PATHS) rows.push(...(await benchPath(backend, path, passwordHash)));
  process.stdout.write(
    `npm run bench${SMOKE ? ' (smoke run: too few logins for the figures to mean anything)' : ''}: ${LOGINS} timed logins per path, ${PROFILED} profiled, concurrency ${CONCURRENCY}, ${os.availableParallelism()} cores, node ${process.version}\n`,
  );
  printTable(rows);
}

await main();
