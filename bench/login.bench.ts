/**
 * `npm run bench`: logins per second through the whole login path against argon2id-only verifications per second,
 * in the same run at the same concurrency, in the default configuration (MFA on, an authenticator-app user:
 * encrypted credentials → TOTP → code) and on the password-only path (MFA_REQUIRED=false), on the embedded
 * database on disk and, with TEST_DATABASE_URL set, on PostgreSQL (BENCH_DATABASE=pglite-disk|pglite|postgres
 * picks one). Prints one table with each figure beside its goal, and per login the database round trips and the
 * main thread's CPU time outside argon2, by stage; then each rate per vCPU beside Keycloak's published one, and one line
 * per goal of issue 28, met or not (bench/support/goals.ts). BENCH_SMOKE=1 runs a handful of logins, to prove it still runs.
 */
import os from 'node:os';
import { verify } from '@node-rs/argon2';
import { hashPassword } from '../server/auth/passwords.ts';
import { testBackends, type TestBackend } from '../tests/server/support/databases.ts';
import { startTestApp } from '../tests/server/support/test-app.ts';
import { countingBackend } from './support/counting-database.ts';
import { cpuByStage, HARNESS, STAGES, type Stage } from './support/cpu-stages.ts';
import { GOALS, goalSummary, KEYCLOAK_PER_VCPU, perVcpu, type DatabaseFigures, type RunFigures } from './support/goals.ts';
import { BENCH_PASSWORD, completeLogin, outboxSettled, prepareLogins, SIGN_IN_PATHS, tripCounting, type LoginRoundTrips, type PreparedLogin } from './support/login-scenario.ts';
import { countTokenTrips, redeemCodes, timeRefreshes, type FinishedLogin, type TokenRoundTrips } from './support/refresh-scenario.ts';
import { postgresServerCpuMs } from './support/postgres-server-cpu.ts';
import { printTable, type Row } from './support/table.ts';

const SMOKE = process.env.BENCH_SMOKE === '1';
const LOGINS = Number(process.env.BENCH_LOGINS ?? (SMOKE ? 4 : 120));
/** Logins profiled one at a time for the round trips and the CPU split (apart from the timed run, which the profiler would slow). */
const PROFILED = Number(process.env.BENCH_PROFILED_LOGINS ?? (SMOKE ? 2 : 30));
/**
 * Two logins in flight per core: a capacity figure is taken with the server saturated, as Keycloak's sizing figures
 * are. With one per core, the main thread idles while a login's argon2 hash runs on libuv's pool and the pool idles
 * while the main thread handles the rest of a login; a second login per core fills those gaps, as under real load.
 * argon2 alone is timed at the same concurrency, so the ratios compare like with like.
 */
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 2 * os.availableParallelism());
/** Times each timed login's refresh token is rotated, one request after another, in the refresh run. */
const REFRESH_ROUNDS = Number(process.env.BENCH_REFRESH_ROUNDS ?? (SMOKE ? 2 : 10));
/**
 * Refresh chains in flight: enough that the server's CPU, not a round trip's wait, sets the rate, as a per-vCPU
 * capacity figure assumes (a refresh spends most of its time waiting on the database).
 */
const REFRESH_CONCURRENCY = Number(process.env.BENCH_REFRESH_CONCURRENCY ?? 4 * os.availableParallelism());

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
  { ...SIGN_IN_PATHS.mfa, goal: GOALS.mfaRatio },
  { ...SIGN_IN_PATHS.password, goal: GOALS.passwordRatio },
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

/** The vCPUs the run had: the server, argon2's threads and the simulated browsers all share them. */
const VCPUS = os.availableParallelism();

const average = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

/** One path's table rows, and the figures its goals are judged by. */
interface PathResult {
  rows: Row[];
  figures: DatabaseFigures;
}

async function benchPath(base: TestBackend, path: (typeof PATHS)[number], passwordHash: string): Promise<PathResult> {
  const { backend, counter } = countingBackend(base);
  const server = await startTestApp({ backend, env: path.env });
  try {
    const redirectUri = server.publicClient.redirectUri;
    const timed = await prepareLogins(server, passwordHash, LOGINS, { totp: path.totp, prefix: `${path.key}-timed` });
    const profiled = await prepareLogins(server, passwordHash, PROFILED, { totp: path.totp, prefix: `${path.key}-profiled` });

    const argon2Alone = (count: number) =>
      inParallel(timed.slice(0, count), async () => {
        if (!(await verify(passwordHash, BENCH_PASSWORD))) throw new Error('argon2 verify failed');
      });
    // argon2 alone is timed half before the logins and half after them: this machine's speed drifts within a run
    // (argon2 alone has run 30% apart a minute apart), and a drift that is steady over the logins then weighs on
    // both figures of the ratio alike, instead of on whichever was timed in the faster seconds.
    const firstHalf = Math.floor(LOGINS / 2);
    const argonBefore = await argon2Alone(firstHalf);
    const finished: FinishedLogin[] = [];
    const loginSeconds = await inParallel(timed, async (login: PreparedLogin) => {
      const { callback } = await completeLogin(login, redirectUri);
      finished.push({ callback, codeVerifier: login.codeVerifier });
    });
    // The timed logins' mail must not be charged to the profiled ones, nor overlap the second half of argon2 alone.
    await outboxSettled(server);
    const argonSeconds = argonBefore + (await argon2Alone(LOGINS - firstHalf));

    // Refresh-token requests, on the MFA path's timed logins' tokens (codes redeemed untimed): how the code was earned does not change them.
    const refreshes = path.totp ? await timeRefreshes(server, await redeemCodes(server, finished), REFRESH_ROUNDS, REFRESH_CONCURRENCY) : undefined;

    const trips: LoginRoundTrips[] = [];
    let firstProfiled: FinishedLogin | undefined;
    let cpu = new Map<Stage | typeof HARNESS, number>();
    // PostgreSQL's own CPU is another process's: read from /proc around the same logins, when the server is local.
    const postgresServerMs = await postgresServerCpuMs(base.name === 'postgres' ? process.env.TEST_DATABASE_URL : undefined, async () => {
      cpu = await cpuByStage(async () => {
        for (const login of profiled) {
          const { callback, ...counts } = await completeLogin(login, redirectUri, tripCounting(server, counter));
          trips.push(counts);
          firstProfiled ??= { callback, codeVerifier: login.codeVerifier };
        }
      });
    });
    // Counted apart from the logins' CPU: one code exchange, one /oidc/me and one refresh.
    const tokenTrips = path.totp && firstProfiled ? await countTokenTrips(server, counter, firstProfiled) : undefined;

    const logins = LOGINS / loginSeconds;
    const verifies = LOGINS / argonSeconds;
    const ratio = logins / verifies;
    const where = `${base.name}, ${path.label}`;
    const perLogin = (ms: number | undefined) => `${((ms ?? 0) / PROFILED).toFixed(2)} ms`;
    const serverCpu = STAGES.reduce((sum, stage) => sum + (cpu.get(stage) ?? 0), 0);
    const passwordTrips = average(trips.map((trip) => trip.password));
    const codeStepTrips = average(trips.map((trip) => trip.secondFactor));
    const tokenFigures = tokenTrips && { refreshes, userinfoRoundTrips: tokenTrips.userinfo, tokenRoundTrips: Math.max(tokenTrips.codeExchange, tokenTrips.refresh) };
    const figures: DatabaseFigures =
      path.key === 'mfa' ? { mfaLogins: logins, mfaRatio: ratio, argon2PerSecond: verifies, databaseMs: (cpu.get('DB') ?? 0) / PROFILED, databaseServerMs: postgresServerMs === undefined ? undefined : postgresServerMs / PROFILED, mfaCodeStepRoundTrips: codeStepTrips, ...tokenFigures } : { passwordRatio: ratio };
    const rows: Row[] = [
      { section: where, figure: 'logins/s (whole path)', value: logins.toFixed(1) },
      { section: where, figure: `logins/s per vCPU (${VCPUS} vCPUs; Keycloak publishes ${KEYCLOAK_PER_VCPU.passwordLogins})`, value: perVcpu(logins, VCPUS).toFixed(1) },
      { section: where, figure: 'argon2id verifies/s (same concurrency)', value: verifies.toFixed(1) },
      { section: where, figure: 'ratio', value: ratio.toFixed(3), goal: `≥ ${path.goal}`, met: ratio >= path.goal },
      { section: where, figure: 'round trips: password step', value: passwordTrips.toFixed(1), goal: `≤ ${GOALS.passwordStepRoundTrips}`, met: passwordTrips <= GOALS.passwordStepRoundTrips },
      ...(path.totp ? [{ section: where, figure: 'round trips: authenticator code step', value: codeStepTrips.toFixed(1) }] : []),
      { section: where, figure: 'round trips: provider resume → code', value: average(trips.map((trip) => trip.resume)).toFixed(1) },
      { section: where, figure: 'round trips: mail sent after the answer (outbox)', value: average(trips.map((trip) => trip.background)).toFixed(1) },
      { section: where, figure: 'round trips: whole login', value: average(trips.map((trip) => trip.password + trip.secondFactor + trip.resume + trip.background)).toFixed(1) },
      ...(refreshes === undefined || !tokenTrips ? [] : tokenRows(where, refreshes, tokenTrips)),
      ...STAGES.map((stage) => ({ section: where, figure: `CPU per login: ${stage}`, value: perLogin(cpu.get(stage)) })),
      { section: where, figure: 'CPU per login: server, outside argon2', value: perLogin(serverCpu) },
      { section: where, figure: `CPU per login: ${HARNESS}`, value: perLogin(cpu.get(HARNESS)) },
      ...(postgresServerMs === undefined ? [] : [{ section: where, figure: 'CPU per login: PostgreSQL server processes (not in the figures above)', value: perLogin(postgresServerMs) }]),
    ];
    return { rows, figures };
  } finally {
    await server.close();
  }
}

/** The refresh run's rows and the token endpoint's and userinfo's round trips. */
function tokenRows(where: string, refreshes: number, trips: TokenRoundTrips): Row[] {
  return [
    { section: where, figure: `refresh-token requests/s (${REFRESH_ROUNDS} rotations per token, ${REFRESH_CONCURRENCY} tokens at a time)`, value: refreshes.toFixed(0) },
    { section: where, figure: `refresh-token requests/s per vCPU (Keycloak publishes ${KEYCLOAK_PER_VCPU.refreshes})`, value: perVcpu(refreshes, VCPUS).toFixed(0) },
    { section: where, figure: 'round trips: /oidc/token, code exchange', value: String(trips.codeExchange) },
    { section: where, figure: 'round trips: /oidc/token, refresh', value: String(trips.refresh) },
    { section: where, figure: 'round trips: /oidc/me', value: String(trips.userinfo) },
  ];
}

async function main(): Promise<void> {
  const backends = chosenBackends();
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const rows: Row[] = [];
  const run: RunFigures = { vcpus: VCPUS, embedded: {}, postgres: {} };
  for (const backend of backends) {
    for (const path of PATHS) {
      const result = await benchPath(backend, path, passwordHash);
      rows.push(...result.rows);
      const database = backend.name === 'postgres' ? run.postgres : run.embedded;
      Object.assign(database, result.figures);
    }
  }
  process.stdout.write(
    `npm run bench${SMOKE ? ' (smoke run: too few logins for the figures to mean anything)' : ''}: ${LOGINS} timed logins per path, ${PROFILED} profiled, concurrency ${CONCURRENCY}, ${os.availableParallelism()} cores, node ${process.version}\n`,
  );
  printTable(rows);
  process.stdout.write(`\nGoals of issue 28 (Keycloak publishes ${KEYCLOAK_PER_VCPU.passwordLogins} password logins/s and ${KEYCLOAK_PER_VCPU.refreshes} refresh-token requests/s per vCPU):\n`);
  for (const line of goalSummary(run)) process.stdout.write(`  ${line}\n`);
}

await main();
