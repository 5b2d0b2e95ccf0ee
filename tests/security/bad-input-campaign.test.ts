/**
 * The generated bad-input campaign: for every API operation (from Fastify's route table, with the form schema its
 * flow step declares) and the provider's endpoints, requests derived from the schemas and then broken. None may
 * get a 5xx, and every 4xx carries the error body. The seed is fixed and printed; `npm run test:security -- --full`
 * raises the count.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAtSignIn, submitRegistration } from '../server/support/registration.ts';
import { openLoginScreen, submitLogin, TestBrowser } from '../server/support/sign-in.ts';
import { startTestApp, type TestApp } from '../server/support/test-app.ts';
import { badRequest, seededRandom, type FieldSchema, type GeneratedRequest, type Operation } from './support/bad-input.ts';
import { routeTable } from './support/route-table.ts';

/** Requests per run: 5,000 in CI, more when SECURITY_CAMPAIGN_REQUESTS says so (`npm run test:security -- --full`). */
const REQUESTS = Number(process.env.SECURITY_CAMPAIGN_REQUESTS ?? 5000);
const SEED = Number(process.env.SECURITY_CAMPAIGN_SEED ?? 20261125);
/** Requests in flight at once: the delay floors (reset, sign-up) overlap instead of adding up. */
const CONCURRENCY = 32;
/** Fresh sign-ins every so many requests, since some requests end the ones the real cookies point at. */
const REQUESTS_PER_SIGN_IN = 250;

const ROOT = path.resolve(import.meta.dirname, '../..');
const API = '/api/sso/v3';

interface FlowCall {
  method: 'GET' | 'POST';
  path: string;
}
interface FlowStepFile {
  form?: { schema: string };
  init?: FlowCall;
  call?: FlowCall;
  actions?: { call: FlowCall }[];
  variants?: { form?: { schema: string }; call?: FlowCall }[];
}

/** `METHOD path` → the form schema its flow step declares, read from flows/*.json and schemas/forms/. */
function flowSchemas(): Map<string, FieldSchema> {
  const schemas = new Map<string, FieldSchema>();
  const read = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, 'schemas/forms', file), 'utf8')) as FieldSchema;
  for (const file of fs.readdirSync(path.join(ROOT, 'flows')).filter((name) => name.endsWith('.json'))) {
    const flow = JSON.parse(fs.readFileSync(path.join(ROOT, 'flows', file), 'utf8')) as { steps?: Record<string, FlowStepFile> };
    for (const step of Object.values(flow.steps ?? {})) {
      const calls: [FlowCall | undefined, string | undefined][] = [
        [step.init, step.form?.schema],
        [step.call, step.form?.schema],
        ...(step.actions ?? []).map((action): [FlowCall, undefined] => [action.call, undefined]),
        ...(step.variants ?? []).map((variant): [FlowCall | undefined, string | undefined] => [variant.call, variant.form?.schema ?? step.form?.schema]),
      ];
      for (const [call, schema] of calls) {
        if (!call || !schema) continue;
        const key = `${call.method} ${API}/${call.path}`;
        // A call's body is the submit's (POST); a GET init takes no body, so its schema only names query fields.
        if (!schemas.has(key) || call.method === 'POST') schemas.set(key, read(schema));
      }
    }
  }
  return schemas;
}

const text = (maxLength: number): FieldSchema => ({ type: 'string', maxLength });

/** Query fields of the API's GET routes that take one (their route schemas), and what the provider reads. */
const QUERY_SCHEMAS: Record<string, FieldSchema> = {
  [`${API}/authorize`]: {
    type: 'object',
    properties: {
      client_id: text(200), redirect_uri: text(2000), state: text(2000), nonce: text(500), scope: text(500), response_type: text(50),
      code_challenge: { type: 'string', pattern: '^[A-Za-z0-9._~-]{43,128}$' }, code_challenge_method: text(20),
      interaction: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,100}$' }, username: text(254), invitation: text(100), prompt: text(100),
    },
  },
};

/** The provider's endpoints and the parameters each reads (oidc-provider validates them itself). */
const PROVIDER_OPERATIONS: Operation[] = [
  {
    method: 'GET',
    path: '/oidc/auth',
    encoding: 'form',
    schema: {
      type: 'object',
      required: ['client_id', 'redirect_uri', 'response_type', 'scope'],
      properties: {
        client_id: { type: 'string', enum: ['sso-account', 'sso-dashboard'] }, redirect_uri: { type: 'string', enum: ['http://127.0.0.1:8081/demo/auth/callback'] },
        response_type: { type: 'string', enum: ['code'] }, scope: { type: 'string', enum: ['openid', 'openid email profile'] }, state: text(100), nonce: text(100),
        login_hint: text(100), ui_locales: text(20), acr_values: text(20), claims_locales: text(20), prompt: { type: 'string', enum: ['login', 'consent', 'none', 'create'] },
        code_challenge: { type: 'string', enum: ['E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'] }, code_challenge_method: { type: 'string', enum: ['S256', 'plain'] },
        response_mode: { type: 'string', enum: ['query', 'form_post', 'fragment'] }, max_age: text(10), claims: text(200), request: text(200),
      },
    },
  },
  {
    method: 'POST',
    path: '/oidc/token',
    encoding: 'form',
    schema: {
      type: 'object',
      required: ['grant_type'],
      properties: {
        grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token', 'client_credentials'] }, code: text(100), client_id: { type: 'string', enum: ['sso-account', 'sso-dashboard'] },
        client_secret: text(100), redirect_uri: text(200), code_verifier: text(128), refresh_token: text(100),
      },
    },
  },
  { method: 'POST', path: '/oidc/token/revocation', encoding: 'form', schema: { type: 'object', properties: { token: text(100), client_id: text(50), token_type_hint: text(30) } } },
  { method: 'GET', path: '/oidc/me', encoding: 'form', schema: { type: 'object', properties: { access_token: text(100) } } },
  { method: 'POST', path: '/oidc/me', encoding: 'form', schema: { type: 'object', properties: { access_token: text(100) } } },
  { method: 'GET', path: '/oidc/session/end', encoding: 'form', schema: { type: 'object', properties: { id_token_hint: text(500), post_logout_redirect_uri: text(200), state: text(100), client_id: text(50), logout_hint: text(100) } } },
  { method: 'POST', path: '/oidc/session/end/confirm', encoding: 'form', schema: { type: 'object', properties: { xsrf: text(100), logout: { type: 'string', enum: ['yes'] } } } },
  { method: 'GET', path: '/oidc/auth/:uid', encoding: 'form', schema: { type: 'object', properties: {} } },
  { method: 'GET', path: '/oidc/jwks', encoding: 'form', schema: { type: 'object', properties: {} } },
  { method: 'GET', path: '/.well-known/openid-configuration', encoding: 'form', schema: { type: 'object', properties: {} } },
];

/** Fields the API's steps read, for operations whose flow names no form (resend, TOTP set-up). */
const GENERIC_BODY: FieldSchema = { type: 'object', properties: { code: { type: 'string', pattern: '^[0-9]{6}$' }, type: text(10), email: { type: 'string', format: 'email' }, phone: text(20) } };

/** Every operation of the app's route table (the web app's static files aside) plus the provider's. */
function operations(server: TestApp): Operation[] {
  const schemas = flowSchemas();
  const found: Operation[] = [];
  for (const route of routeTable(server.app)) {
    if (route.path.includes('*') || route.path.startsWith('/auth')) continue;
    for (const method of route.methods.filter((name): name is 'GET' | 'POST' => name === 'GET' || name === 'POST')) {
      const schema = (method === 'GET' ? QUERY_SCHEMAS[route.path] : undefined) ?? schemas.get(`${method} ${route.path}`) ?? (method === 'POST' ? GENERIC_BODY : { type: 'object', properties: {} });
      found.push({ method, path: route.path, schema, encoding: 'json' });
    }
  }
  return [...found, ...PROVIDER_OPERATIONS];
}

const PATH_VALUES: Record<string, string> = { client_id: 'sso-account', step: 'job-details', flagKey: 'newLogin', uid: 'abcdefghijklmnop' };

const isProviderPath = (url: string) => url.startsWith('/oidc/') || url.startsWith('/.well-known/');
const isBrowserPage = (request: GeneratedRequest) => isProviderPath(request.url) || (request.method === 'GET' && request.url.startsWith('/demo'));

/** The API's error body: a code and its wording, and, where a step names it, the precise problem's key (contract/error-codes.ts). */
function isErrorBody(body: Record<string, unknown>): boolean {
  const { error_code: code, error_message: message, error_params: params, ...rest } = body;
  if (typeof code !== 'string' || typeof message !== 'string' || Object.keys(rest).length > 0) return false;
  if (params === undefined) return true;
  return typeof params === 'object' && params !== null && !Array.isArray(params) && Object.values(params).every((value) => typeof value === 'string');
}

/** What is wrong with an answer, or undefined when it is fine: no 5xx, and every 4xx has the error body. */
function problemWith(request: GeneratedRequest, response: LightMyRequestResponse): string | undefined {
  if (response.statusCode >= 500) return `answered ${response.statusCode}`;
  if (/at .+\.(ts|js):\d+/.test(response.body)) return 'shows a stack trace';
  if (response.statusCode < 400) return undefined;
  const type = String(response.headers['content-type'] ?? '');
  if (type.startsWith('application/json')) {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(response.body) as Record<string, unknown>;
    } catch {
      return 'answered a 4xx with invalid JSON';
    }
    if (isErrorBody(body)) return undefined;
    // The provider's OAuth endpoints answer as RFC 6749 requires (clients parse `error`); only those may.
    if (isProviderPath(request.url) && typeof body.error === 'string') return undefined;
    return `answered a 4xx without the error body: ${response.body.slice(0, 200)}`;
  }
  // Pages a browser is sent to (the provider's, the demo client's) answer errors with our error page, for people.
  if (isBrowserPage(request) && type.startsWith('text/html') && response.body.includes('<main>')) return undefined;
  return `answered a 4xx as ${type || 'no content type'}: ${response.body.slice(0, 200)}`;
}

/**
 * Browsers at different points of a sign-in, whose real cookies let requests reach the steps' own checks: at the
 * login screen, past the password (second-factor set-up) and inside a sign-up waiting for its code.
 */
async function browsersInSignIns(server: TestApp, round: number): Promise<TestBrowser[]> {
  const atLogin = new TestBrowser(server.app);
  await openLoginScreen(atLogin, server.publicClient);
  const pastPassword = new TestBrowser(server.app);
  await openLoginScreen(pastPassword, server.publicClient);
  await submitLogin(pastPassword, server.user.email, server.user.password);
  const signingUp = await browserAtSignIn(server);
  await submitRegistration(signingUp, { email: `campaign${round}@example.com` });
  return [atLogin, pastPassword, signingUp];
}

describe('the generated bad-input campaign', () => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp();
  });
  afterAll(async () => {
    await server.close();
  });

  it(`answers ${REQUESTS} generated bad requests with no 5xx and the error body on every 4xx`, { timeout: 30 * 60_000 }, async () => {
    const random = seededRandom(SEED);
    const targets = operations(server);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let browsers: TestBrowser[] = [];
    const started = performance.now();
    for (let sent = 0; sent < REQUESTS; sent += CONCURRENCY) {
      if (sent % REQUESTS_PER_SIGN_IN < CONCURRENCY) browsers = await browsersInSignIns(server, sent);
      const batch = Array.from({ length: Math.min(CONCURRENCY, REQUESTS - sent) }, () => {
        const operation = random.pick(targets);
        const cookie = random.pick(browsers).jar.header(operation.path) || undefined;
        const request = badRequest(operation, random, cookie, (name) => PATH_VALUES[name] ?? 'x');
        return { request, ip: `10.${random.int(256)}.${random.int(256)}.${1 + random.int(254)}` };
      });
      const responses = await Promise.all(batch.map(({ request, ip }) => server.app.inject({ ...request, remoteAddress: ip })));
      responses.forEach((response, index) => {
        const { request } = batch[index]!;
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        const problem = problemWith(request, response);
        if (problem) failures.push(`${request.method} ${request.url.slice(0, 200)} [${request.mutation}]: ${problem}`);
      });
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const histogram = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(' ');
    console.log(`bad-input campaign: seed ${SEED}, ${targets.length} operations, tried ${REQUESTS}, failed ${failures.length}, ${seconds} s; statuses ${histogram}`);
    expect(failures, `seed ${SEED} (SECURITY_CAMPAIGN_SEED=${SEED} replays it); first failures:\n${failures.slice(0, 20).join('\n')}`).toEqual([]);
  });
});
