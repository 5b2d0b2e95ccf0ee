import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../server/limits.ts';
import { addUser } from '../../server/admin/operations.ts';
import { capturingMailer, fakeClock, settle } from './support/fakes.ts';
import { exchangeCode, openLoginScreen, signIn, submitLogin, TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const API = '/api/sso/v3';
const NEW_PASSWORD = 'N3w-Passw0rd!';

describe('password recovery by emailed code', () => {
  let server: TestApp;
  const clock = fakeClock();
  const mail = capturingMailer();
  let counter = 0;

  /** A fresh account per test, so limits and codes never leak between tests. */
  async function freshUser(password = 'Old-Passw0rd!') {
    counter += 1;
    const email = `owner${counter}@example.com`;
    await addUser({ db: server.db }, { email, password });
    return { email, password };
  }
  const requestReset = (email: string, headers: Record<string, string> = {}) =>
    server.app.inject({ method: 'POST', url: `${API}/password/reset`, headers: { 'content-type': 'application/json', ...headers }, payload: { email } });
  async function confirm(email: string, code: string, password = NEW_PASSWORD) {
    const browser = new TestBrowser(server.app);
    return browser.request('POST', `${API}/password/reset/confirmation`, { email, code, password: await browser.encrypt(password) });
  }

  beforeAll(async () => {
    // Not about the second factor: these users sign in on their password alone (MFA is tested in tests/server/mfa-*.test.ts).
    server = await startTestApp({ env: { MFA_REQUIRED: 'false' }, clock: clock.now, mailer: mail.mailer });
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers a known and an unknown email with the same status and body, and mails only the known one', async () => {
    const owner = await freshUser();
    const known = await requestReset(owner.email);
    const unknown = await requestReset('nobody-here@example.com');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual({ challenge: 'PASSWORD_RECOVERY', parameters: { delivery_destination: 'o•••@example.com', expires_in: 600, retry_after: 60 } });
    expect(unknown.json()).toEqual({ challenge: 'PASSWORD_RECOVERY', parameters: { delivery_destination: 'n•••@example.com', expires_in: 600, retry_after: 60 } });
    await settle();
    expect(mail.to(owner.email)).toHaveLength(1);
    expect(mail.to('nobody-here@example.com')).toHaveLength(0);
  });

  it('takes no less than the same floor for known and unknown emails', async () => {
    const owner = await freshUser();
    const timed = async (email: string) => {
      const started = performance.now();
      await requestReset(email);
      return performance.now() - started;
    };
    const known = await timed(owner.email);
    const unknown = await timed('nobody-else@example.com');
    expect(known).toBeGreaterThanOrEqual(LIMITS.RESET_RESPONSE_FLOOR_MS - 1);
    expect(unknown).toBeGreaterThanOrEqual(LIMITS.RESET_RESPONSE_FLOOR_MS - 1);
  });

  it('mails a 6-digit code that is stored only as a keyed hash', async () => {
    const owner = await freshUser();
    await requestReset(owner.email);
    const code = await mail.latestCode(owner.email);
    expect(code).toMatch(/^\d{6}$/);
    const rows = await server.db.query<{ code_hash: string }>('select code_hash from one_time_codes');
    expect(rows.rows.every((row) => !row.code_hash.includes(code))).toBe(true);
  });

  it('resets the password with the code, without signing the user in, and tells the owner', async () => {
    const owner = await freshUser();
    await requestReset(owner.email);
    const response = await confirm(owner.email, await mail.latestCode(owner.email));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ challenge: 'SUCCESS_PASSWORD_RESET' });
    expect(response.headers['set-cookie']).toBeUndefined();
    await settle();
    expect(mail.to(owner.email).at(-1)?.subject).toBe('Your password was changed');

    const withOld = new TestBrowser(server.app);
    await openLoginScreen(withOld, server.publicClient);
    expect((await submitLogin(withOld, owner.email, owner.password)).statusCode).toBe(401);
    const withNew = new TestBrowser(server.app);
    await openLoginScreen(withNew, server.publicClient);
    expect((await submitLogin(withNew, owner.email, NEW_PASSWORD)).json()).toHaveProperty('redirect_to');
  });

  it('refuses a code once it has been used', async () => {
    const owner = await freshUser();
    await requestReset(owner.email);
    const code = await mail.latestCode(owner.email);
    expect((await confirm(owner.email, code)).statusCode).toBe(200);
    const again = await confirm(owner.email, code, 'An0ther-Passw0rd!');
    expect(again.statusCode).toBe(400);
    expect(again.json().error_code).toBe('code.invalid');
  });

  it('refuses a code after 10 minutes', async () => {
    const owner = await freshUser();
    await requestReset(owner.email);
    const code = await mail.latestCode(owner.email);
    clock.advance(LIMITS.ONE_TIME_CODE_TTL + 1);
    expect((await confirm(owner.email, code)).json().error_code).toBe('code.invalid');
  });

  it('kills every code of the account after 5 wrong tries, the right one included', async () => {
    const owner = await freshUser();
    await requestReset(owner.email);
    const code = await mail.latestCode(owner.email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let attempt = 0; attempt < LIMITS.ONE_TIME_CODE_MAX_FAILURES; attempt += 1) {
      expect((await confirm(owner.email, wrong)).json().error_code).toBe('code.invalid');
    }
    const right = await confirm(owner.email, code);
    expect(right.statusCode).toBe(429);
    expect(right.json()).toEqual({ error_code: 'code.too_many_attempts', error_message: 'Too many wrong codes. For your security, wait a while before asking for a new code.' });
  });

  it('lets exactly one of 50 parallel confirmations with one code succeed', async () => {
    const owner = await freshUser();
    await requestReset(owner.email);
    const code = await mail.latestCode(owner.email);
    const browser = new TestBrowser(server.app);
    const bodies = await Promise.all(Array.from({ length: 50 }, async () => ({ email: owner.email, code, password: await browser.encrypt(NEW_PASSWORD) })));
    const responses = await Promise.all(bodies.map((body) => browser.request('POST', `${API}/password/reset/confirmation`, body)));
    expect(responses.filter((response) => response.statusCode === 200)).toHaveLength(1);
  });

  it('sends at most 3 reset emails per account per hour, answering the same every time', async () => {
    const owner = await freshUser();
    const answers = [];
    for (let request = 0; request < 5; request += 1) answers.push((await requestReset(owner.email)).json());
    await settle();
    expect(mail.to(owner.email)).toHaveLength(LIMITS.RESET_EMAILS_PER_HOUR);
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    clock.advance(3600 + 1);
    await requestReset(owner.email);
    await settle();
    expect(mail.to(owner.email)).toHaveLength(LIMITS.RESET_EMAILS_PER_HOUR + 1);
  });

  it.each([
    ['short1!', 'at least 8 characters', 'password.rule.length'],
    ['alllowercase1!', 'at least one UPPERCASE letter', 'password.rule.uppercase'],
    ['ALLUPPERCASE1!', 'at least one lowercase letter', 'password.rule.lowercase'],
    ['NoDigits-here', 'at least one number', 'password.rule.number'],
    ['NoSpecial123', 'at least one special character (e.g. ~ ! @ # $ %)', 'password.rule.special'],
  ])('refuses the weak new password %s with the rule it breaks', async (password, message, reason) => {
    const owner = await freshUser();
    await requestReset(owner.email);
    const response = await confirm(owner.email, await mail.latestCode(owner.email), password);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error_code: 'request.invalid', error_message: message, error_params: { reason, field: 'password' } });
  });

  it('refuses the current password as the new one', async () => {
    const owner = await freshUser();
    await requestReset(owner.email);
    const response = await confirm(owner.email, await mail.latestCode(owner.email), owner.password);
    expect(response.json().error_code).toBe('password.reused');
  });

  it('accepts a 64-character passphrase', async () => {
    const owner = await freshUser();
    await requestReset(owner.email);
    const passphrase = `Correct-Horse-Battery-Staple-1-${'x'.repeat(33)}`;
    expect(passphrase).toHaveLength(64);
    expect((await confirm(owner.email, await mail.latestCode(owner.email), passphrase)).statusCode).toBe(200);
  });

  it('answers a confirmation for an unknown email like a wrong code', async () => {
    const response = await confirm('nobody-at-all@example.com', '123456');
    expect(response.statusCode).toBe(400);
    expect(response.json().error_code).toBe('code.invalid');
  });

  it('signs the user out everywhere: tokens and provider sessions stop working', async () => {
    const owner = await freshUser();
    const browser = new TestBrowser(server.app);
    const { callback, codeVerifier } = await signIn(browser, { ...server.publicClient, email: owner.email, password: owner.password });
    const token = await exchangeCode(server.app, server.publicClient, callback, codeVerifier);
    const accessToken = token.json().access_token as string;
    const userinfo = () => server.app.inject({ method: 'GET', url: '/oidc/me', headers: { authorization: `Bearer ${accessToken}` } });
    expect((await userinfo()).statusCode).toBe(200);

    await requestReset(owner.email);
    expect((await confirm(owner.email, await mail.latestCode(owner.email))).statusCode).toBe(200);
    expect((await userinfo()).statusCode).toBe(401);
    // The browser's provider session is gone too: the next authorization asks for the password again.
    const { interaction } = await openLoginScreen(browser, server.publicClient);
    expect(interaction).toBeTruthy();
  });

  it('builds links in emails from PUBLIC_URL, never from the request host', async () => {
    const owner = await freshUser();
    await requestReset(owner.email, { host: 'evil.example', 'x-forwarded-host': 'evil.example' });
    await confirm(owner.email, await mail.latestCode(owner.email));
    await settle();
    const changed = mail.to(owner.email).at(-1)!;
    expect(changed.text).toContain('http://localhost:8080/auth/forgot-password');
    expect(changed.text).not.toContain('evil.example');
  });
});
