/**
 * The bot check on the server: steps marked `botCheck` need a token the bot-check service (here a local
 * verifier speaking Turnstile's siteverify protocol) accepts, once BOT_CHECK_SECRET is set; off, nothing changes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBotCheckVerifier } from '../../server/auth/bot-check.ts';
import { openLoginScreen, submitLogin, TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const API = '/api/sso/v3';
const SECRET = 'local-verifier-secret';
const GOOD = 'good-token';

let verifier: Server;
let verifyUrl: string;
const seen: URLSearchParams[] = [];

beforeAll(async () => {
  verifier = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const form = new URLSearchParams(body);
      seen.push(form);
      const success = form.get('secret') === SECRET && form.get('response') === GOOD;
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success, 'error-codes': success ? [] : ['invalid-input-response'] }));
    });
  });
  await new Promise<void>((resolve) => verifier.listen(0, '127.0.0.1', resolve));
  verifyUrl = `http://127.0.0.1:${(verifier.address() as AddressInfo).port}/siteverify`;
});
afterAll(() => new Promise<void>((resolve) => verifier.close(() => resolve())));

describe('bot-check adapter', () => {
  it('says yes only when the service does, sending the secret, token and address', async () => {
    const check = createBotCheckVerifier({ secret: SECRET, verifyUrl, timeoutMs: 2000 });
    await expect(check.verify(GOOD, '203.0.113.9')).resolves.toBe(true);
    expect(seen.at(-1)?.get('remoteip')).toBe('203.0.113.9');
    await expect(check.verify('forged', '203.0.113.9')).resolves.toBe(false);
    await expect(check.verify('', '203.0.113.9')).resolves.toBe(false);
  });

  it('counts an unreachable service as a failed check', async () => {
    const check = createBotCheckVerifier({ secret: SECRET, verifyUrl: 'http://127.0.0.1:1/siteverify', timeoutMs: 2000 });
    await expect(check.verify(GOOD, '203.0.113.9')).resolves.toBe(false);
  });
});

describe('steps marked botCheck', () => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp({ env: { BOT_CHECK_SECRET: SECRET, BOT_CHECK_VERIFY_URL: verifyUrl } });
  });
  afterAll(() => server.close());

  const requestReset = (payload: Record<string, unknown>) =>
    server.app.inject({ method: 'POST', url: `${API}/password/reset`, headers: { 'content-type': 'application/json' }, payload });

  it.each([
    ['without a token', {}],
    ['with a token the service refuses', { botCheckToken: 'forged' }],
    ['with a token that is not a string', { botCheckToken: 42 }],
  ])('refuses forgot-password %s, in clear words', async (_case, extra) => {
    const response = await requestReset({ email: 'someone@example.com', ...extra });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error_code: 'bot_check.failed', error_message: 'The security check did not pass. Please try again.' });
  });

  it('accepts forgot-password with a verified token, which is not taken for a form field', async () => {
    const response = await requestReset({ email: 'someone@example.com', botCheckToken: GOOD });
    expect(response.statusCode).toBe(200);
  });

  it('guards login too: the right password alone is refused, with a verified token it signs in', async () => {
    const browser = new TestBrowser(server.app);
    await openLoginScreen(browser, server.publicClient);
    const refused = await submitLogin(browser, server.user.email, server.user.password);
    expect(refused.json()).toMatchObject({ error_code: 'bot_check.failed' });
    const password = await browser.encrypt(server.user.password);
    const accepted = await browser.request('POST', `${API}/auth/login`, { email: server.user.email, password, botCheckToken: GOOD });
    expect(accepted.statusCode).toBe(200);
  });
});

describe('with the bot check off (no BOT_CHECK_SECRET)', () => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp();
  });
  afterAll(() => server.close());

  it('accepts forgot-password without a token, and ignores one that is sent', async () => {
    for (const payload of [{ email: 'someone@example.com' }, { email: 'someone@example.com', botCheckToken: 'anything' }]) {
      const response = await server.app.inject({ method: 'POST', url: `${API}/password/reset`, headers: { 'content-type': 'application/json' }, payload });
      expect(response.statusCode).toBe(200);
    }
  });
});
