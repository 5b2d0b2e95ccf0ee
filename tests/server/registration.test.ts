import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import { fakeClock } from './support/fakes.ts';
import { browserAtSignIn, NEW_USER_PASSWORD, submitRegistration, submitRegistrationCode } from './support/registration.ts';
import { exchangeCode, signIn, TestBrowser } from './support/sign-in.ts';
import { startSmtpCapture, type SmtpCapture } from './support/smtp-capture.ts';
import { startTestApp, TEST_PUBLIC_URL, type TestApp } from './support/test-app.ts';

const API = '/api/sso/v3';

describe('registration', () => {
  let server: TestApp;
  let smtp: SmtpCapture;
  const clock = fakeClock();
  let counter = 0;
  const freshEmail = () => `newcomer${(counter += 1)}@example.com`;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    // Not about the second factor: these users sign in on their password alone (MFA is tested in tests/server/mfa-*.test.ts).
    server = await startTestApp({ clock: clock.now, env: { SMTP_URL: smtp.url, MFA_REQUIRED: 'false' } });
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  it('registers a new user: code by email, account made, back to the client app signed in', async () => {
    const browser = await browserAtSignIn(server);
    const email = freshEmail();
    const started = await submitRegistration(browser, { email, firstName: 'Grace', lastName: 'Hopper' });
    expect(started.statusCode).toBe(200);
    expect(started.json()).toEqual({
      parameters: { delivery_destination: 'n•••@example.com', sent_at: new Date(clock.now()).toISOString(), expires_in: 600, retry_after: 60 },
    });
    expect(started.headers['retry-after']).toBe('60');
    const [mail] = await smtp.waitFor(email);
    expect(mail?.subject).toBe('Your registration code');
    const verified = await submitRegistrationCode(browser, await smtp.latestCode(email));
    expect(verified.statusCode).toBe(200);
    const answer = verified.json<{ challenge: string; redirect_to: string }>();
    expect(answer.challenge).toBe('SUCCESS_REGISTRATION');
    expect(answer.redirect_to.startsWith(`${TEST_PUBLIC_URL}/oidc/auth/`)).toBe(true);
    const callback = new URL(String((await browser.request('GET', answer.redirect_to)).headers.location));
    expect(callback.searchParams.get('code')).toBeTruthy();
  });

  it('lets the new user sign in with the password chosen at registration, with the names given and the terms acceptance recorded', async () => {
    const browser = await browserAtSignIn(server);
    const email = freshEmail();
    await submitRegistration(browser, { email, firstName: 'Katherine', lastName: 'Johnson' });
    await submitRegistrationCode(browser, await smtp.latestCode(email));
    const rows = await server.db.query<{ first_name: string; last_name: string; pre_registered: boolean; terms_accepted: boolean }>(
      'select first_name, last_name, pre_registered, terms_accepted_at is not null as terms_accepted from users where email_normalized = $1',
      [email],
    );
    expect(rows.rows).toEqual([{ first_name: 'Katherine', last_name: 'Johnson', pre_registered: false, terms_accepted: true }]);
    const { callback, codeVerifier } = await signIn(browser, { ...server.publicClient, email, password: NEW_USER_PASSWORD });
    const tokens = await exchangeCode(server.app, server.publicClient, callback, codeVerifier);
    expect(tokens.statusCode).toBe(200);
  });

  it('marks the sign-in as a registration, so later gates can tell', async () => {
    const browser = await browserAtSignIn(server);
    await submitRegistration(browser, { email: freshEmail() });
    const rows = await server.db.query<{ data: Record<string, unknown> }>('select data from transactions');
    expect(rows.rows.some((row) => row.data.registration === true)).toBe(true);
  });

  it('answers an address that already has an account exactly as a new one, and warns the owner instead of sending a code', async () => {
    const owner = freshEmail();
    await addUser({ db: server.db }, { email: owner, password: 'Owner-Passw0rd!' });
    const newcomer = owner.replace('newcomer', 'nobody');
    const existing = await submitRegistration(await browserAtSignIn(server), { email: owner });
    const fresh = await submitRegistration(await browserAtSignIn(server), { email: newcomer });
    expect(existing.statusCode).toBe(fresh.statusCode);
    expect(existing.body).toBe(fresh.body);
    expect(existing.headers['retry-after']).toBe(fresh.headers['retry-after']);
    const [warning] = await smtp.waitFor(owner);
    expect(warning?.subject).toBe('Someone tried to register with your email address');
    expect(warning?.raw).not.toMatch(/Your code is/);
    expect(warning?.raw).toContain(`${TEST_PUBLIC_URL}/auth/forgot-password?username=${encodeURIComponent(owner)}`);
    expect((await smtp.waitFor(newcomer))[0]?.subject).toBe('Your registration code');
  });

  it('does the same work for a new address and an existing account: a hash, a stored attempt and a stored code each', async () => {
    const owner = freshEmail();
    await addUser({ db: server.db }, { email: owner, password: 'Owner-Passw0rd!' });
    const newcomer = freshEmail();
    await submitRegistration(await browserAtSignIn(server), { email: owner });
    await submitRegistration(await browserAtSignIn(server), { email: newcomer });
    const stored = await server.db.query<{ email_normalized: string; hashed: boolean; codes: number }>(
      `select p.email_normalized, p.password_hash like '$argon2id$%' as hashed,
              (select count(*)::int from registration_codes c where c.registration_id = p.id) as codes
       from pending_registrations p where p.email_normalized = any($1) order by p.email_normalized`,
      [[owner, newcomer]],
    );
    expect(stored.rows.map(({ hashed, codes }) => ({ hashed, codes }))).toEqual([
      { hashed: true, codes: 1 },
      { hashed: true, codes: 1 },
    ]);
  });

  it("builds the owner's link from PUBLIC_URL, whatever host the request names", async () => {
    const owner = freshEmail();
    await addUser({ db: server.db }, { email: owner, password: 'Owner-Passw0rd!' });
    const browser = await browserAtSignIn(server);
    const response = await server.app.inject({
      method: 'POST',
      url: `${API}/register`,
      headers: { cookie: browser.jar.header(`${API}/register`), host: 'evil.example', 'x-forwarded-host': 'evil.example', 'content-type': 'application/json' },
      payload: JSON.stringify({ email: owner, firstName: 'Ada', lastName: 'Lovelace', password: await browser.encrypt(NEW_USER_PASSWORD), acceptTerms: true }),
    });
    expect(response.statusCode).toBe(200);
    const [warning] = await smtp.waitFor(owner);
    expect(warning?.raw).toContain(`${TEST_PUBLIC_URL}/auth/forgot-password?`);
    expect(warning?.raw).not.toContain('evil.example');
  });

  it('never lets a code take over an existing account', async () => {
    const owner = freshEmail();
    await addUser({ db: server.db }, { email: owner, password: 'Owner-Passw0rd!' });
    const browser = await browserAtSignIn(server);
    await submitRegistration(browser, { email: owner });
    const response = await submitRegistrationCode(browser, '123456');
    expect(response.statusCode).toBe(400);
    expect(response.json().error_code).toBe('code.invalid');
  });

  it('refuses a common password with a clear message, though it meets every rule', async () => {
    const response = await submitRegistration(await browserAtSignIn(server), { email: freshEmail(), password: 'P@ssw0rd' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error_code: 'request.invalid',
      error_message: 'This password is too common and easy to guess. Please choose a different one.',
      error_params: { reason: 'password.common', field: 'password' },
    });
  });

  it('refuses a password that misses a rule, in the rule\'s words', async () => {
    const response = await submitRegistration(await browserAtSignIn(server), { email: freshEmail(), password: 'lowercase-only-1' });
    expect(response.json().error_message).toBe('at least one UPPERCASE letter');
  });

  it('accepts a pasted 100-character passphrase and keeps all of it', async () => {
    const browser = await browserAtSignIn(server);
    const email = freshEmail();
    const long = `${'Correct-Horse-Battery-Staple-9 '.repeat(3)}${'x'.repeat(7)}`.padEnd(100, 'Z');
    expect(long.length).toBe(100);
    expect((await submitRegistration(browser, { email, password: long })).statusCode).toBe(200);
    await submitRegistrationCode(browser, await smtp.latestCode(email));
    await expect(signIn(await browserAtSignIn(server), { ...server.publicClient, email, password: long.slice(0, 64) })).rejects.toThrow(/401/);
    await expect(signIn(new TestBrowser(server.app), { ...server.publicClient, email, password: long })).resolves.toBeDefined();
  });

  it('refuses the form without accepted terms or without a name, in the spec\'s words', async () => {
    const noTerms = await submitRegistration(await browserAtSignIn(server), { email: freshEmail(), acceptTerms: false });
    expect(noTerms.json()).toEqual({ error_code: 'request.invalid', error_message: 'Please accept the Terms and Conditions', error_params: { reason: 'validation.acceptTerms.required', field: 'acceptTerms' } });
    const noName = await submitRegistration(await browserAtSignIn(server), { email: freshEmail(), firstName: '' });
    expect(noName.json()).toEqual({ error_code: 'request.invalid', error_message: 'Please enter your name', error_params: { reason: 'validation.name.required', field: 'firstName' } });
  });

  it('refuses a code before any sign-up started in this browser', async () => {
    const browser = await browserAtSignIn(server);
    const response = await submitRegistrationCode(browser, '123456');
    expect(response.statusCode).toBe(409);
    expect(response.json().error_code).toBe('step.out_of_order');
  });

  it('refuses to register outside a sign-in', async () => {
    const response = await server.app.inject({ method: 'POST', url: `${API}/register`, payload: { email: freshEmail() } });
    expect(response.statusCode).toBe(401);
    expect(response.json().error_code).toBe('transaction.missing');
  });
});
