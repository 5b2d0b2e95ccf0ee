import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../server/limits.ts';
import { testBackends } from './support/databases.ts';
import { capturingMailer, fakeClock } from './support/fakes.ts';
import { browserAtSignIn, otherCode, requestAnotherCode, submitRegistration, submitRegistrationCode } from './support/registration.ts';
import { startSmtpCapture, type SmtpCapture } from './support/smtp-capture.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const API = '/api/sso/v3';

describe('registration codes', () => {
  let server: TestApp;
  let smtp: SmtpCapture;
  const clock = fakeClock();
  let counter = 0;
  const freshEmail = () => `coder${(counter += 1)}@example.com`;

  /** A browser whose sign-up for a fresh address is waiting for its code. */
  async function startedSignUp() {
    const browser = await browserAtSignIn(server);
    const email = freshEmail();
    await submitRegistration(browser, { email });
    return { browser, email, code: await smtp.latestCode(email) };
  }

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    // Not about the second factor: these users sign in on their password alone (MFA is tested in tests/server/mfa-*.test.ts).
    server = await startTestApp({ clock: clock.now, env: { SMTP_URL: smtp.url, MFA_REQUIRED: 'false' } });
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  it('mails six digits and stores only a keyed hash of them', async () => {
    const { code } = await startedSignUp();
    expect(code).toMatch(/^\d{6}$/);
    const rows = await server.db.query<{ code_hash: string }>('select code_hash from registration_codes');
    expect(rows.rows.every((row) => !row.code_hash.includes(code))).toBe(true);
  });

  it('says a wrong code is wrong, and the right one still works after it', async () => {
    const { browser, code } = await startedSignUp();
    const wrong = await submitRegistrationCode(browser, otherCode(code));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error_code: 'code.invalid', error_message: 'That code is wrong or has expired. Check it, or ask for a new one.' });
    expect((await submitRegistrationCode(browser, code)).json().challenge).toBe('SUCCESS_REGISTRATION');
  });

  it('refuses a code older than ten minutes', async () => {
    const { browser, code } = await startedSignUp();
    clock.advance(LIMITS.ONE_TIME_CODE_TTL + 1);
    const response = await submitRegistrationCode(browser, code);
    expect(response.json().error_code).toBe('code.invalid');
  });

  it('accepts a code just inside its ten minutes', async () => {
    const { browser, code } = await startedSignUp();
    clock.advance(LIMITS.ONE_TIME_CODE_TTL - 1);
    expect((await submitRegistrationCode(browser, code)).json().challenge).toBe('SUCCESS_REGISTRATION');
  });

  /** A six-digit code that is none of `codes`. */
  const wrongCodeFor = (...codes: string[]) => {
    let candidate = '000000';
    while (codes.includes(candidate)) candidate = otherCode(candidate);
    return candidate;
  };

  it('kills the code after five wrong tries, even the right one after them', async () => {
    const { browser, code } = await startedSignUp();
    for (let attempt = 0; attempt < LIMITS.ONE_TIME_CODE_MAX_FAILURES; attempt += 1) await submitRegistrationCode(browser, wrongCodeFor(code));
    const right = await submitRegistrationCode(browser, code);
    expect(right.statusCode).toBe(429);
    expect(right.json()).toEqual({ error_code: 'code.too_many_attempts', error_message: 'Too many wrong codes. For your security, wait a while before asking for a new code.' });
  });

  it('counts wrong tries per address, across browsers, not per browser', async () => {
    const first = await startedSignUp();
    const second = await browserAtSignIn(server, '10.0.0.2');
    await submitRegistration(second, { email: first.email });
    const secondCode = await smtp.latestCode(first.email);
    const wrong = wrongCodeFor(first.code, secondCode);
    for (let attempt = 0; attempt < 2; attempt += 1) await submitRegistrationCode(first.browser, wrong);
    for (let attempt = 0; attempt < LIMITS.ONE_TIME_CODE_MAX_FAILURES - 2; attempt += 1) await submitRegistrationCode(second, wrong);
    expect((await submitRegistrationCode(second, secondCode)).json().error_code).toBe('code.too_many_attempts');
    expect((await submitRegistrationCode(first.browser, first.code)).json().error_code).toBe('code.too_many_attempts');
  });

  it('redeems one code exactly once among 50 parallel submissions', async () => {
    const { browser, email, code } = await startedSignUp();
    const responses = await Promise.all(Array.from({ length: 50 }, () => submitRegistrationCode(browser, code)));
    const successes = responses.filter((response) => response.statusCode === 200);
    expect(successes).toHaveLength(1);
    expect(successes[0]?.json().challenge).toBe('SUCCESS_REGISTRATION');
    const users = await server.db.query<{ n: number }>('select count(*)::int as n from users where email_normalized = $1', [email]);
    expect(users.rows[0]?.n).toBe(1);
  });

  it('refuses a resend within the cooldown, saying how long to wait', async () => {
    const { browser } = await startedSignUp();
    clock.advance(10);
    const early = await requestAnotherCode(browser);
    expect(early.statusCode).toBe(429);
    expect(early.headers['retry-after']).toBe(String(LIMITS.REGISTRATION_RESEND_COOLDOWN - 10));
    expect(early.json().error_code).toBe('code.resend_too_soon');
  });

  it('sends another code after the cooldown, which supersedes the earlier one', async () => {
    const { browser, email, code } = await startedSignUp();
    clock.advance(LIMITS.REGISTRATION_RESEND_COOLDOWN);
    const resent = await requestAnotherCode(browser);
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toEqual({
      challenge: 'RESEND_OTP',
      parameters: { delivery_destination: 'c•••@example.com', sent_at: new Date(clock.now()).toISOString(), expires_in: 600, retry_after: 60 },
    });
    expect(resent.headers['retry-after']).toBe('60');
    await smtp.waitFor(email, 2);
    const newest = await smtp.latestCode(email);
    expect(newest).not.toBe(code);
    expect((await submitRegistrationCode(browser, code)).json().error_code).toBe('code.invalid');
    expect((await submitRegistrationCode(browser, newest)).json().challenge).toBe('SUCCESS_REGISTRATION');
  });

  it('tells a reloaded code screen where and when the code went', async () => {
    const { browser } = await startedSignUp();
    clock.advance(15);
    const state = await browser.request('GET', `${API}/register/otp`);
    expect(state.json().parameters).toMatchObject({ delivery_destination: 'c•••@example.com', retry_after: 45 });
  });

  it('sends at most five registration emails per address per hour', async () => {
    const email = freshEmail();
    for (let attempt = 0; attempt < LIMITS.REGISTRATION_EMAILS_PER_HOUR + 2; attempt += 1) {
      expect((await submitRegistration(await browserAtSignIn(server), { email })).statusCode).toBe(200);
    }
    await smtp.waitFor(email, LIMITS.REGISTRATION_EMAILS_PER_HOUR);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(smtp.to(email)).toHaveLength(LIMITS.REGISTRATION_EMAILS_PER_HOUR);
  });
});

// PGlite runs one statement at a time; PostgreSQL (TEST_DATABASE_URL) really runs the redemptions side by side.
describe.each(testBackends().filter((backend) => backend.name === 'postgres'))('registration codes on $name', (backend) => {
  let server: TestApp;
  const mail = capturingMailer();
  beforeAll(async () => {
    // Not about the second factor: these users sign in on their password alone (MFA is tested in tests/server/mfa-*.test.ts).
    server = await startTestApp({ env: { MFA_REQUIRED: 'false' }, backend, mailer: mail.mailer });
  });
  afterAll(async () => {
    await server.close();
  });

  it('redeems one code exactly once among 50 parallel submissions, making one account', async () => {
    const browser = await browserAtSignIn(server);
    const email = 'parallel@example.com';
    await submitRegistration(browser, { email });
    const code = await mail.latestCode(email);
    const responses = await Promise.all(Array.from({ length: 50 }, () => submitRegistrationCode(browser, code)));
    expect(responses.filter((response) => response.statusCode === 200)).toHaveLength(1);
    expect(responses.every((response) => response.statusCode < 500)).toBe(true);
    const users = await server.db.query<{ n: number }>('select count(*)::int as n from users where email_normalized = $1', [email]);
    expect(users.rows[0]?.n).toBe(1);
  });
});
