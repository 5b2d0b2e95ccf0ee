/**
 * A value PostgreSQL cannot store (a NUL byte, a lone surrogate) gets a 400 with the usual error body wherever it
 * arrives: the API's query, path, body and cookies, the provider's authorization and token requests, a login link
 * followed through. On every backend, since the database is what refuses the value.
 */
import Fastify, { type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installErrorHandling } from '../../server/api/http-errors.ts';
import { UnstorableValueError } from '../../server/db/database.ts';
import { capturingMailer } from './support/fakes.ts';
import { browserAtSignIn, submitRegistration } from './support/registration.ts';
import { testBackends } from './support/databases.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const API = '/api/sso/v3';
const backends = testBackends().filter((backend) => backend.name !== 'pglite-disk');

function expectRefusedAsBadInput(response: LightMyRequestResponse): void {
  expect(response.statusCode, response.body).toBe(400);
  expect(response.json()).toEqual({ error_code: 'request.invalid', error_message: expect.stringContaining('cannot be stored') });
}

describe.each(backends)('unstorable input on $name', (backend) => {
  let server: TestApp;
  const mail = capturingMailer();
  let counter = 0;
  const freshEmail = () => `nul${(counter += 1)}@example.com`;

  beforeAll(async () => {
    server = await startTestApp({ backend, mailer: mail.mailer, env: { MFA_REQUIRED: 'false' } });
  });
  afterAll(async () => {
    await server.close();
  });

  const authorizeQuery = (overrides: Record<string, string>) =>
    new URLSearchParams({
      client_id: server.confidentialClient.clientId,
      redirect_uri: server.confidentialClient.redirectUri,
      response_type: 'code',
      scope: 'openid',
      state: 'state-1',
      ...overrides,
    });

  it.each([
    ['a client id in the path', `${API}/clients/%00`],
    ['a client id in the query', `${API}/authorize?client_id=x%00y&redirect_uri=https%3A%2F%2Fexample.com&state=s`],
    ['a login link whose state holds a NUL', `${API}/authorize?client_id=sso-dashboard&redirect_uri=http%3A%2F%2Flocalhost%3A8080%2Fdemo%2Fdashboard%2Fcallback&state=a%00b`],
  ])('refuses a NUL byte in %s', async (_case, url) => {
    expectRefusedAsBadInput(await server.app.inject({ method: 'GET', url }));
  });

  it.each(['state', 'nonce', 'login_hint', 'ui_locales', 'acr_values', 'claims_locales', 'client_id'])('refuses a NUL byte in /oidc/auth %s', async (name) => {
    const query = authorizeQuery({ [name]: 'a\u0000b' });
    expectRefusedAsBadInput(await server.app.inject({ method: 'GET', url: `/oidc/auth?${query}` }));
  });

  it.each([
    ['code', { code: 'a\u0000b', client_id: 'sso-account' }],
    ['client_id', { code: 'abc', client_id: 'a\u0000' }],
  ])('refuses a NUL byte in the /oidc/token %s', async (_case, fields) => {
    const payload = new URLSearchParams({ grant_type: 'authorization_code', redirect_uri: 'http://localhost:8080/cb', code_verifier: 'x'.repeat(43), ...fields }).toString();
    const response = await server.app.inject({ method: 'POST', url: '/oidc/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload });
    expectRefusedAsBadInput(response);
  });

  it('refuses a NUL byte in Basic client credentials at /oidc/token', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/oidc/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('a%00b:secret').toString('base64')}` },
      payload: 'grant_type=client_credentials',
    });
    expectRefusedAsBadInput(response);
  });

  it('refuses a NUL byte in a cookie', async () => {
    const response = await server.app.inject({ method: 'GET', url: `${API}/authorize?interaction=abc`, headers: { cookie: 'sso_tx=a%00b' } });
    expectRefusedAsBadInput(response);
  });

  it('refuses a NUL byte in the first name of a sign-up, which the \\S pattern lets through', async () => {
    const browser = await browserAtSignIn(server);
    expectRefusedAsBadInput(await submitRegistration(browser, { email: freshEmail(), firstName: 'a\u0000b' }));
  });

  it.each([
    ['a NUL byte', '\u0000'],
    ['a lone surrogate', '\ud800'],
  ])('refuses %s in a profile attribute', async (_case, jobTitle) => {
    const browser = await browserAtSignIn(server);
    await submitRegistration(browser, { email: freshEmail() });
    const response = await browser.request('POST', `${API}/register/attributes/job-details`, { jobTitle, department: 'Finance' });
    expectRefusedAsBadInput(response);
  });

  it('refuses a lone surrogate in an object key', async () => {
    const browser = await browserAtSignIn(server);
    expectRefusedAsBadInput(await browser.request('POST', `${API}/auth/login`, { email: 'a@example.com', password: 'x', ['\udc00']: 1 }));
  });

  it('answers a value the database itself refuses with a 400, as a backstop behind the guard', async () => {
    const app = Fastify();
    installErrorHandling(app);
    app.get('/store', async () => server.db.query('select $1::jsonb as value', [{ text: 'a\u0000b' }]));
    const response = await app.inject({ method: 'GET', url: '/store' });
    await app.close();
    expectRefusedAsBadInput(response);
    await expect(server.db.query('select $1::text as value', ['a\u0000b'])).rejects.toBeInstanceOf(UnstorableValueError);
  });
});
