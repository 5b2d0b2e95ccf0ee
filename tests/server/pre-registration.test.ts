import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import { capturingMailer } from './support/fakes.ts';
import { browserAtSignIn, DETAILS_BEFORE_CODE, NEW_USER_PASSWORD, submitRegistration, submitRegistrationCode } from './support/registration.ts';
import { signIn, TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const API = '/api/sso/v3';

describe('completing a pre-registered account', () => {
  let server: TestApp;
  const mail = capturingMailer();
  let counter = 0;

  /** An operator's pre-registered user, and a browser whose sign-up for it has just passed the emailed code. */
  async function verifiedPreRegistration() {
    const email = `prepared${(counter += 1)}@example.com`;
    await addUser({ db: server.db }, { email, firstName: 'Mary', preRegistered: true });
    const browser = await browserAtSignIn(server);
    await submitRegistration(browser, { email, firstName: 'Typed', lastName: 'Jackson' });
    const verified = await submitRegistrationCode(browser, await mail.latestCode(email));
    return { email, browser, verified };
  }

  beforeAll(async () => {
    // Not about the second factor: these users sign in on their password alone (MFA is tested in tests/server/mfa-*.test.ts).
    server = await startTestApp({ env: { MFA_REQUIRED: 'false' }, mailer: mail.mailer });
  });
  afterAll(async () => {
    await server.close();
  });

  it('sends a pre-registered address a code like a new one, then asks to complete the account with what is known', async () => {
    const { email, verified } = await verifiedPreRegistration();
    expect(mail.to(email).at(-1)?.subject).toBe('Your registration code');
    expect(verified.json()).toEqual({ challenge: 'PRE_REGISTRATION', parameters: { email, firstName: 'Mary', lastName: 'Jackson', ...DETAILS_BEFORE_CODE } });
  });

  it('preloads the same details when the completion screen is reloaded', async () => {
    const { email, browser } = await verifiedPreRegistration();
    const preload = await browser.request('GET', `${API}/register/userinfo`);
    expect(preload.json()).toEqual({ challenge: 'PRE_REGISTRATION', parameters: { email, firstName: 'Mary', lastName: 'Jackson', ...DETAILS_BEFORE_CODE } });
  });

  it('completes the account with the names and password given, and finishes the sign-in', async () => {
    const { email, browser } = await verifiedPreRegistration();
    const completed = await browser.request('POST', `${API}/register/userinfo`, {
      email,
      firstName: 'Mary',
      lastName: 'Jackson',
      password: await browser.encrypt(NEW_USER_PASSWORD),
    });
    expect(completed.statusCode).toBe(200);
    expect(completed.json().challenge).toBe('SUCCESS_REGISTRATION');
    expect(typeof completed.json().redirect_to).toBe('string');
    const rows = await server.db.query<{ last_name: string; pre_registered: boolean }>('select last_name, pre_registered from users where email_normalized = $1', [email]);
    expect(rows.rows).toEqual([{ last_name: 'Jackson', pre_registered: false }]);
    await expect(signIn(new TestBrowser(server.app), { ...server.publicClient, email, password: NEW_USER_PASSWORD })).resolves.toBeDefined();
  });

  it('refuses a common password when completing the account', async () => {
    const { email, browser } = await verifiedPreRegistration();
    const response = await browser.request('POST', `${API}/register/userinfo`, {
      email,
      firstName: 'Mary',
      lastName: 'Jackson',
      password: await browser.encrypt('P@ssw0rd'),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error_message).toBe('This password is too common and easy to guess. Please choose a different one.');
  });

  it('refuses the completion step to a sign-in that did not prove the address', async () => {
    const browser = await browserAtSignIn(server);
    const response = await browser.request('GET', `${API}/register/userinfo`);
    expect(response.statusCode).toBe(409);
    expect(response.json().error_code).toBe('step.out_of_order');
  });

  it('does not let a pre-registered account sign in before it is completed', async () => {
    const email = `prepared${(counter += 1)}@example.com`;
    await addUser({ db: server.db }, { email, preRegistered: true });
    await expect(signIn(new TestBrowser(server.app), { ...server.publicClient, email, password: 'Anything-Passw0rd!' })).rejects.toThrow(/401/);
  });
});
