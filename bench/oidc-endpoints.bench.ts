/**
 * `npm run bench:oidc`: requests per second of the provider's token endpoint (authorization code + PKCE, RS256-signed
 * ID token, one fresh code per request) and of its userinfo endpoint (/oidc/me with a bearer access token), against
 * a Fastify hello-world in the same run, on the same machine, with the same autocannon load (goals 0.15× and 0.35×).
 * The codes are made beforehand by whole sign-ins (untimed, for at most half a code's lifetime, then spent first). Everything runs in this process on 127.0.0.1 sockets,
 * so the load generator shares the CPU with the server alike for all three. BENCH_DATABASE=pglite|postgres picks the
 * database (postgres needs TEST_DATABASE_URL). BENCH_SMOKE=1 runs a handful of requests.
 *
 * Two reference rows, under the same load in the same run, show the floor every endpoint of this app pays before it
 * does work of its own: the app's `/healthz` (Fastify with the app's hooks and one `select 1`) and the provider's
 * `/oidc/jwks` (the app's hooks, the mount into oidc-provider and Koa, no database).
 */
import autocannon from 'autocannon';
import Fastify, { type InjectOptions } from 'fastify';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { LIMITS } from '../server/limits.ts';
import { signIn, TestBrowser } from '../tests/server/support/sign-in.ts';
import { testBackends } from '../tests/server/support/databases.ts';
import { startTestApp } from '../tests/server/support/test-app.ts';
import { countingBackend } from './support/counting-database.ts';
import { outboxSettled } from './support/login-scenario.ts';
import { printTable, type Row } from './support/table.ts';

const SMOKE = process.env.BENCH_SMOKE === '1';
/** Token requests, one code each (a code is single-use). */
const CODES = Number(process.env.BENCH_CODES ?? (SMOKE ? 4 : 1500));
/** Codes are made for at most half their lifetime, and spent at once, so none expires before its request. */
const CODE_MAKING_MS = (LIMITS.AUTHORIZATION_CODE_TTL * 1000) / 2;
/** Seconds of load for the hello-world and /oidc/me. */
const SECONDS = Number(process.env.BENCH_SECONDS ?? (SMOKE ? 1 : 10));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** Ratios to hello-world, and issue 28's round trips per request (as tests/bench/round-trips.test.ts asserts them). */
const GOALS = { token: 0.15, me: 0.35, tokenRoundTrips: 3, meRoundTrips: 1 };

interface Load {
  requestsPerSecond: number;
  failures: number;
}

function loadOf(result: autocannon.Result, seconds: number, requests: number): Load {
  return { requestsPerSecond: requests / seconds, failures: result.non2xx + result.errors + result.timeouts };
}

/**
 * Runs `options` under load. autocannon ends a run of a set `amount` of requests only at its next one-second sample,
 * which would count up to a second of nothing against a run that short (the token requests take one or two seconds):
 * such a run passes `lastAnswerAt`, and is timed to its last answer.
 */
async function loadFor(options: autocannon.Options, lastAnswerAt?: () => number): Promise<Load> {
  const started = performance.now();
  const result = await autocannon({ connections: CONNECTIONS, ...options });
  const ended = lastAnswerAt?.() ?? performance.now();
  return loadOf(result, (ended - started) / 1000, result.requests.total);
}

function originOf(address: string | AddressInfo | null): string {
  if (!address || typeof address === 'string') throw new Error('the server is not listening on a TCP port');
  return `http://127.0.0.1:${address.port}`;
}

async function helloWorld(): Promise<Load> {
  const hello = Fastify();
  hello.get('/', async () => ({ hello: 'world' }));
  await hello.listen({ host: '127.0.0.1', port: 0 });
  try {
    return await loadFor({ url: originOf(hello.server.address()), duration: SECONDS });
  } finally {
    await hello.close();
  }
}

/** One token request's form body per code made by a whole sign-in of the demo user as the public client. */
async function tokenBodies(server: Awaited<ReturnType<typeof startTestApp>>): Promise<string[]> {
  const bodies: string[] = [];
  const deadline = performance.now() + CODE_MAKING_MS;
  for (let index = 0; index < CODES && performance.now() < deadline; index += 1) {
    // Distinct client addresses, so the per-address throttles see many people, not one.
    const browser = new TestBrowser(server.app, `10.2.${Math.floor(index / 250)}.${(index % 250) + 1}`);
    const { callback, codeVerifier } = await signIn(browser, { ...server.publicClient, email: server.user.email, password: server.user.password });
    const code = callback.searchParams.get('code');
    if (!code) throw new Error(`the sign-in ended without a code: ${callback.href}`);
    bodies.push(
      new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: server.publicClient.redirectUri, client_id: server.publicClient.clientId, code_verifier: codeVerifier }).toString(),
    );
  }
  return bodies;
}

async function main(): Promise<void> {
  // Codes come from the password-only path: how the code was earned does not change what the token endpoint does.
  const wanted = process.env.BENCH_DATABASE;
  const backend = wanted ? testBackends().find((candidate) => candidate.name === wanted) : testBackends()[0];
  if (!backend) throw new Error(`no ${wanted} backend: set TEST_DATABASE_URL to bench PostgreSQL`);
  const { backend: counted, counter } = countingBackend(backend);
  const server = await startTestApp({ backend: counted, env: { MFA_REQUIRED: 'false' } });
  try {
    const bodies = await tokenBodies(server);
    // One code is spent apart, to count the statements each endpoint sends for one request.
    const countedBody = bodies.pop();
    if (countedBody === undefined) throw new Error('no code was made');
    // Counted as `npm run bench` and tests/bench/round-trips.test.ts count: the statements the request sends before
    // its answer, once earlier requests' mail (new-browser notices) has gone out, and none of the outbox worker's.
    const tripsOf = async (request: InjectOptions & { url: string }) => {
      await outboxSettled(server, () => counter.count);
      const { result: response, trips } = await counter.within(() => server.app.inject(request));
      if (response.statusCode !== 200) throw new Error(`${request.url} answered ${response.statusCode}: ${response.body}`);
      return { trips, body: response.body };
    };
    const tokenTrips = await tripsOf({ method: 'POST', url: '/oidc/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: countedBody });
    const countedToken = (JSON.parse(tokenTrips.body) as { access_token: string }).access_token;
    const meTrips = await tripsOf({ method: 'GET', url: '/oidc/me', headers: { authorization: `Bearer ${countedToken}` } });
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    const origin = originOf(server.app.server.address());

    let accessToken = '';
    let next = 0;
    let lastTokenAnswerAt = 0;
    const token = await loadFor(
      {
        url: `${origin}/oidc/token`,
        amount: bodies.length,
        // autocannon needs at least one request per connection.
        connections: Math.min(CONNECTIONS, bodies.length),
        requests: [
          {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            setupRequest: (request) => ({ ...request, body: bodies[next++] ?? '' }),
            onResponse: (status, body) => {
              lastTokenAnswerAt = performance.now();
              if (status === 200 && !accessToken) accessToken = (JSON.parse(body) as { access_token: string }).access_token;
            },
          },
        ],
      },
      () => lastTokenAnswerAt,
    );
    if (!accessToken) throw new Error('no token request succeeded');
    const hello = await helloWorld();
    const healthz = await loadFor({ url: `${origin}/healthz`, duration: SECONDS });
    const jwks = await loadFor({ url: `${origin}/oidc/jwks`, duration: SECONDS });
    const me = await loadFor({ url: `${origin}/oidc/me`, duration: SECONDS, headers: { authorization: `Bearer ${accessToken}` } });

    const rows: Row[] = [
      { section: 'Fastify hello-world', figure: 'requests/s', value: hello.requestsPerSecond.toFixed(0) },
      ...floorRows(FLOORS.healthz, healthz, hello),
      ...floorRows(FLOORS.jwks, jwks, hello),
      { section: '/oidc/token (code + PKCE, RS256)', figure: 'requests/s', value: token.requestsPerSecond.toFixed(0) },
      { section: '/oidc/token (code + PKCE, RS256)', figure: 'failed requests', value: String(token.failures), goal: '0', met: token.failures === 0 },
      { section: '/oidc/token (code + PKCE, RS256)', figure: 'database round trips per request', value: String(tokenTrips.trips), goal: `≤ ${GOALS.tokenRoundTrips}`, met: tokenTrips.trips <= GOALS.tokenRoundTrips },
      ratioRow('/oidc/token (code + PKCE, RS256)', token, hello, GOALS.token),
      { section: '/oidc/me', figure: 'requests/s', value: me.requestsPerSecond.toFixed(0) },
      { section: '/oidc/me', figure: 'failed requests', value: String(me.failures), goal: '0', met: me.failures === 0 },
      { section: '/oidc/me', figure: 'database round trips per request', value: String(meTrips.trips), goal: `≤ ${GOALS.meRoundTrips}`, met: meTrips.trips <= GOALS.meRoundTrips },
      ratioRow('/oidc/me', me, hello, GOALS.me),
    ];
    process.stdout.write(
      `npm run bench:oidc${SMOKE ? ' (smoke run: too few requests for the figures to mean anything)' : ''}: ${backend.name}, ${bodies.length} token requests, ${SECONDS} s each of hello-world, /healthz, /oidc/jwks and /oidc/me, ${CONNECTIONS} connections, ${os.availableParallelism()} cores, node ${process.version}\n`,
    );
    printTable(rows);
  } finally {
    await server.close();
  }
}

/** The reference rows' labels: what every endpoint of this app pays before any work of its own. */
const FLOORS = {
  healthz: "floor: the app's /healthz (one select 1)",
  jwks: "floor: the provider's /oidc/jwks (no database)",
};

function floorRows(section: string, load: Load, hello: Load): Row[] {
  return [
    { section, figure: 'requests/s', value: load.requestsPerSecond.toFixed(0) },
    { section, figure: 'failed requests', value: String(load.failures), goal: '0', met: load.failures === 0 },
    { section, figure: 'ratio to hello-world', value: (load.requestsPerSecond / hello.requestsPerSecond).toFixed(3) },
  ];
}

function ratioRow(section: string, load: Load, hello: Load, goal: number): Row {
  const ratio = load.requestsPerSecond / hello.requestsPerSecond;
  return { section, figure: 'ratio to hello-world', value: ratio.toFixed(3), goal: `≥ ${goal}`, met: ratio >= goal };
}

await main();
