/**
 * Every benchmark runs here as a smoke run (a handful of iterations), so none can rot unnoticed: each must
 * complete and print its figures. Timings are never asserted; goals belong to the benches' own output.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { onFreePort } from '../../scripts/fixtures/free-port.ts';

const run = promisify(execFile);
const SMOKE_TIMEOUT_MS = 240_000;

/** Runs `script` under tsx with the smoke settings; answers what it printed. */
async function smokeRun(script: string, env: Record<string, string>): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, BENCH_SMOKE: '1', ...env },
    timeout: SMOKE_TIMEOUT_MS,
    maxBuffer: 10 * 1024 * 1024,
  });
  return stdout;
}

/** The table rows (`| where | figure | value | goal | met |`) whose figure contains `figure`. */
function rowsOf(output: string, figure: string): string[][] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()))
    .filter((cells) => cells[1]?.includes(figure));
}

describe('npm run bench (login throughput), as a smoke run', () => {
  it('logs in with an authenticator app and on the password-only path, and prints throughput, ratio against argon2, round trips and CPU by stage', async () => {
    const output = await smokeRun('bench/login.bench.ts', { BENCH_DATABASE: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite' });
    const paths = [expect.stringContaining('MFA on'), expect.stringContaining('password only')];
    for (const figure of ['logins/s (whole path)', 'argon2id verifies/s', 'ratio', 'round trips: password step', 'round trips: whole login']) {
      const rows = rowsOf(output, figure);
      expect(rows.map((cells) => cells[0]), figure).toEqual(paths);
      for (const cells of rows) expect(Number.parseFloat(cells[2] ?? ''), `${cells[0]} ${figure}`).toBeGreaterThan(0);
    }
    // A smoke run profiles too few logins for every stage to catch a sample: each is printed, as milliseconds.
    for (const stage of ['decrypt', 'transaction load', 'provider interaction and resume', 'grant', 'code', 'DB', 'server, outside argon2']) {
      const rows = rowsOf(output, `CPU per login: ${stage}`);
      expect(rows.map((cells) => cells[0]), stage).toEqual(paths);
      for (const cells of rows) expect(cells[2], `${cells[0]} ${stage}`).toMatch(/^\d+\.\d{2} ms$/);
    }
    expect(rowsOf(output, 'round trips: authenticator code step')).toHaveLength(1);
    expect(rowsOf(output, 'ratio').map((cells) => cells[3])).toEqual(['≥ 0.5', '≥ 0.6']);
    // Per vCPU beside Keycloak's published figure, and one line per goal of issue 28.
    for (const cells of rowsOf(output, 'logins/s per vCPU')) expect(cells[1]).toContain('Keycloak publishes 15');
    // Refresh-token requests (rotated each time) per vCPU beside Keycloak's 120, and the token endpoint's and userinfo's round trips.
    for (const cells of rowsOf(output, 'refresh-token requests/s per vCPU')) {
      expect(cells[1]).toContain('Keycloak publishes 120');
      expect(Number.parseFloat(cells[2] ?? '')).toBeGreaterThan(0);
    }
    for (const figure of ['round trips: /oidc/token, code exchange', 'round trips: /oidc/token, refresh', 'round trips: /oidc/me']) {
      expect(rowsOf(output, figure).map((cells) => Number(cells[2])), figure).toEqual([expect.any(Number)]);
    }
    for (const goal of ['MFA sign-in ≥ 60/s per vCPU', 'the same as a share of argon2 alone, MFA sign-in ≥ 0.5', 'password-only sign-in ≥ 0.6 × argon2', 'embedded database costs no more', 'MFA code step in ≤ 4', '/oidc/me in 1 round trip', 'token endpoint (code and refresh) in ≤ 3', 'refresh ≥ 600/s per vCPU']) {
      expect(output, goal).toMatch(new RegExp(`^  ${goal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*: (met|NOT met|partly measured|not measured in this run)`, 'm'));
    }
  }, SMOKE_TIMEOUT_MS);
});

describe('npm run bench:web (client link to a usable login form), as a smoke run', () => {
  it('opens a client link in Chromium and prints the page loads, the time to a usable form and the LCP against a static form', async () => {
    // On another port if this one was taken before the bench could bind it (scripts/fixtures/free-port.ts).
    const output = await onFreePort((port) => smokeRun('bench/web-lcp.bench.ts', { BENCH_WEB_PORT: String(port) }));
    expect(Number(rowsOf(output, 'page loads per client link')[0]?.[2])).toBeGreaterThanOrEqual(1);
    for (const figure of ['link → usable form', 'LCP from the link', 'LCP of a static HTML form']) {
      expect(Number.parseFloat(rowsOf(output, figure)[0]?.[2] ?? ''), figure).toBeGreaterThan(0);
    }
    expect(rowsOf(output, 'LCP ratio')[0]?.[3]).toBe('≤ 1.5');
  }, SMOKE_TIMEOUT_MS);
});

describe('npm run bench:oidc (token and userinfo endpoints against a hello-world), as a smoke run', () => {
  it("exchanges fresh codes at /oidc/token, reads /oidc/me with the access token, and prints each against a Fastify hello-world, with the app's /healthz and /oidc/jwks as the floor", async () => {
    const output = await smokeRun('bench/oidc-endpoints.bench.ts', {});
    expect(Number.parseFloat(rowsOf(output, 'requests/s').find((cells) => cells[0] === 'Fastify hello-world')?.[2] ?? '')).toBeGreaterThan(0);
    // The floor every endpoint of the app pays, measured in the same run: the app's /healthz and the provider's /oidc/jwks.
    for (const floor of ["the app's /healthz", "the provider's /oidc/jwks"]) {
      const rows = rowsOf(output, '').filter((cells) => cells[0]?.startsWith(`floor: ${floor}`));
      expect(Number.parseFloat(rows.find((cells) => cells[1] === 'requests/s')?.[2] ?? ''), floor).toBeGreaterThan(0);
      expect(rows.find((cells) => cells[1] === 'failed requests')?.[2], floor).toBe('0');
      expect(Number.parseFloat(rows.find((cells) => cells[1] === 'ratio to hello-world')?.[2] ?? ''), floor).toBeGreaterThan(0);
    }
    for (const [endpoint, goal] of [['/oidc/token', '≥ 0.15'], ['/oidc/me', '≥ 0.35']] as const) {
      const rows = rowsOf(output, '').filter((cells) => cells[0]?.startsWith(endpoint));
      const figure = (name: string) => rows.find((cells) => cells[1] === name);
      expect(Number.parseFloat(figure('requests/s')?.[2] ?? ''), endpoint).toBeGreaterThan(0);
      // Every request answered 200: a smoke run proves the codes, PKCE and the bearer token all work.
      expect(figure('failed requests')?.[2], endpoint).toBe('0');
      expect(figure('ratio to hello-world')?.[3], endpoint).toBe(goal);
      // Round trips are counted as npm run bench counts them, beside issue 28's ceilings.
      expect(figure('database round trips per request')?.[4], endpoint).toBe('met');
    }
  }, SMOKE_TIMEOUT_MS);

  it('signs in and refreshes one after another, and prints the CPU time of each, outside argon2 and on the main thread', async () => {
    const output = await smokeRun('bench/cpu.bench.ts', { BENCH_DATABASE: 'pglite' });
    for (const figure of ['CPU ms per sign-in, whole process', 'CPU ms per argon2id verify, alone', 'CPU ms per sign-in, main thread', 'CPU ms per refresh-token request, main thread']) {
      expect(Number.parseFloat(rowsOf(output, figure)[0]?.[2] ?? ''), figure).toBeGreaterThan(0);
    }
  }, SMOKE_TIMEOUT_MS);
});
