/**
 * `npm run bench:cpu`: the process's CPU time (process.cpuUsage: user + system, every thread) per whole MFA sign-in
 * (password, authenticator code, the provider's resume to the client's code, and the mail it queues) and per
 * refresh-token request, run one after another so no figure depends on the machine's load. A sign-in's argon2
 * verify is measured apart (the same hash, one after another) and taken out: what is left is everything else the
 * sign-in costs, the simulated browser in this process (inject) included, and on the embedded database its
 * statements too (PGlite runs in this process; PostgreSQL's own CPU is another process's and is not counted). The
 * main thread's CPU alone is printed too: argon2 runs on libuv's pool, so it is the sign-in's cost outside argon2
 * without the noise of subtracting two measurements (GC and I/O helper threads left out).
 * BENCH_DATABASE=pglite-disk (the default)|pglite|postgres picks the database (postgres needs TEST_DATABASE_URL).
 * BENCH_CPU_PROFILE=<directory> also writes V8 CPU profiles (sign-in.cpuprofile, refresh.cpuprofile; open them in
 * Chrome DevTools) of a second, profiled run, apart from the measured one, which a profiler would slow.
 * BENCH_PATH=password measures the password-only sign-in (MFA_REQUIRED=false) instead. BENCH_SMOKE=1 runs a handful.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { verify } from '@node-rs/argon2';
import { hashPassword } from '../server/auth/passwords.ts';
import { testBackends } from '../tests/server/support/databases.ts';
import { startTestApp, type TestApp } from '../tests/server/support/test-app.ts';
import { BENCH_PASSWORD, completeLogin, outboxSettled, prepareLogins, SIGN_IN_PATHS, type PreparedLogin } from './support/login-scenario.ts';
import { redeemCodes } from './support/refresh-scenario.ts';
import { printTable } from './support/table.ts';

const SMOKE = process.env.BENCH_SMOKE === '1';
const SIGN_INS = Number(process.env.BENCH_SIGN_INS ?? (SMOKE ? 3 : 40));
/** Sign-ins (and their refreshes) run first and not counted: V8 compiles the hot paths then. */
const WARM_UP = SMOKE ? 1 : 5;
const REFRESH_ROUNDS = Number(process.env.BENCH_REFRESH_ROUNDS ?? (SMOKE ? 2 : 10));
/** The sign-in measured: with an authenticator app (the default configuration), or with the password alone. */
const PATH = process.env.BENCH_PATH === 'password' ? SIGN_IN_PATHS.password : SIGN_IN_PATHS.mfa;
/** Microseconds between the profiler's samples: finer than V8's default 1 ms, as a sign-in's stages are short. */
const PROFILE_INTERVAL_US = 100;

/** CPU milliseconds (user + system) that `work` took: in every thread, and in the main thread alone. */
async function cpuMs(work: () => Promise<unknown>): Promise<{ process: number; main: number }> {
  const before = { process: process.cpuUsage(), main: process.threadCpuUsage() };
  await work();
  const spent = { process: process.cpuUsage(before.process), main: process.threadCpuUsage(before.main) };
  return { process: (spent.process.user + spent.process.system) / 1000, main: (spent.main.user + spent.main.system) / 1000 };
}

async function signInAll(server: TestApp, logins: readonly PreparedLogin[]): Promise<{ callback: URL; codeVerifier: string }[]> {
  const finished = [];
  for (const login of logins) finished.push({ callback: (await completeLogin(login, server.publicClient.redirectUri)).callback, codeVerifier: login.codeVerifier });
  return finished;
}

async function refreshAll(server: TestApp, refreshTokens: readonly string[]): Promise<void> {
  for (let token of refreshTokens) {
    for (let round = 0; round < REFRESH_ROUNDS; round += 1) {
      const response = await server.app.inject({
        method: 'POST',
        url: '/oidc/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ client_id: server.publicClient.clientId, grant_type: 'refresh_token', refresh_token: token }).toString(),
      });
      if (response.statusCode !== 200) throw new Error(`a refresh answered ${response.statusCode}: ${response.body}`);
      token = response.json<{ refresh_token: string }>().refresh_token;
    }
  }
}

/** Writes a V8 CPU profile of `work` to `file`. */
async function profiled(file: string, work: () => Promise<unknown>): Promise<void> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: PROFILE_INTERVAL_US });
  await session.post('Profiler.start');
  try {
    await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    fs.writeFileSync(file, JSON.stringify(profile));
  }
}

async function main(): Promise<void> {
  const wanted = process.env.BENCH_DATABASE ?? 'pglite-disk';
  const backend = testBackends().find((candidate) => candidate.name === wanted);
  if (!backend) throw new Error(`no ${wanted} backend: set TEST_DATABASE_URL to bench PostgreSQL`);
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const server = await startTestApp({ backend, env: PATH.env });
  try {
    const profileDir = process.env.BENCH_CPU_PROFILE;
    const logins = await prepareLogins(server, passwordHash, WARM_UP + SIGN_INS + (profileDir ? SIGN_INS : 0), { totp: PATH.totp, prefix: 'cpu' });
    const warmUp = logins.splice(0, WARM_UP);
    const measured = logins.splice(0, SIGN_INS);
    await refreshAll(server, await redeemCodes(server, await signInAll(server, warmUp)));
    await outboxSettled(server);

    let finished: { callback: URL; codeVerifier: string }[] = [];
    const signInCpu = await cpuMs(async () => {
      finished = await signInAll(server, measured);
      // The mail a sign-in queues (a new-browser notice) is part of its cost.
      await outboxSettled(server);
    });
    const argonCpu = await cpuMs(async () => {
      for (let index = 0; index < SIGN_INS; index += 1) if (!(await verify(passwordHash, BENCH_PASSWORD))) throw new Error('argon2 verify failed');
    });
    const refreshTokens = await redeemCodes(server, finished);
    const refreshCpu = await cpuMs(() => refreshAll(server, refreshTokens));
    if (profileDir) {
      fs.mkdirSync(profileDir, { recursive: true });
      let profiledSignIns: { callback: URL; codeVerifier: string }[] = [];
      await profiled(path.join(profileDir, 'sign-in.cpuprofile'), async () => {
        profiledSignIns = await signInAll(server, logins);
      });
      const profiledTokens = await redeemCodes(server, profiledSignIns);
      await profiled(path.join(profileDir, 'refresh.cpuprofile'), () => refreshAll(server, profiledTokens));
    }

    const perSignIn = signInCpu.process / SIGN_INS;
    const perVerify = argonCpu.process / SIGN_INS;
    const refreshes = SIGN_INS * REFRESH_ROUNDS;
    const section = `${backend.name}, ${PATH.label}`;
    process.stdout.write(
      `npm run bench:cpu${SMOKE ? ' (smoke run: too few for the figures to mean anything)' : ''}: ${SIGN_INS} sign-ins and ${SIGN_INS * REFRESH_ROUNDS} refreshes one after another, after ${WARM_UP} to warm up, node ${process.version}\n`,
    );
    printTable([
      { section, figure: 'CPU ms per sign-in, whole process', value: perSignIn.toFixed(2) },
      { section, figure: 'CPU ms per argon2id verify, alone', value: perVerify.toFixed(2) },
      { section, figure: 'CPU ms per sign-in outside argon2 (simulated browser included)', value: (perSignIn - perVerify).toFixed(2) },
      { section, figure: 'CPU ms per sign-in, main thread (argon2 runs off it)', value: (signInCpu.main / SIGN_INS).toFixed(2) },
      { section, figure: 'CPU ms per refresh-token request (rotation and reuse detection on)', value: (refreshCpu.process / refreshes).toFixed(2) },
      { section, figure: 'CPU ms per refresh-token request, main thread', value: (refreshCpu.main / refreshes).toFixed(2) },
    ]);
    if (profileDir) process.stdout.write(`CPU profiles of ${SIGN_INS} more sign-ins and ${refreshes} more refreshes: ${profileDir}\n`);
  } finally {
    await server.close();
  }
}

await main();
