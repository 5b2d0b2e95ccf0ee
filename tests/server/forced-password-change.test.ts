import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, requireReset } from '../../server/admin/operations.ts';
import { LIMITS } from '../../server/limits.ts';
import { capturingMailer, fakeClock } from './support/fakes.ts';
import { openLoginScreen, submitLogin, TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const API = '/api/sso/v3';

describe('a password that must be replaced at sign-in', () => {
  let server: TestApp;
  const clock = fakeClock(Date.now());
  const mail = capturingMailer();
  beforeAll(async () => {
    // Not about the second factor: these users sign in on their password alone (MFA is tested in tests/server/mfa-*.test.ts).
    server = await startTestApp({ env: { MFA_REQUIRED: 'false' }, clock: clock.now, mailer: mail.mailer });
  });
  afterAll(async () => {
    await server.close();
  });

  async function setNewPassword(browser: TestBrowser, password: string) {
    return browser.request('POST', `${API}/auth/password`, { password: await browser.encrypt(password) });
  }

  it('asks for a new password after a temporary one, refuses a weak one, then returns to the client', async () => {
    await addUser({ db: server.db }, { email: 'temp@example.com', password: 'Temp-Passw0rd!', temporary: true });
    const browser = new TestBrowser(server.app);
    await openLoginScreen(browser, server.publicClient);
    const login = await submitLogin(browser, 'temp@example.com', 'Temp-Passw0rd!');
    expect(login.json()).toEqual({ challenge: 'NEW_PASSWORD_REQUIRED' });
    expect((await setNewPassword(browser, 'weakpass')).json()).toEqual({
      error_code: 'request.invalid',
      error_message: 'at least one UPPERCASE letter',
      error_params: { reason: 'password.rule.uppercase', field: 'password' },
    });
    expect((await setNewPassword(browser, 'Temp-Passw0rd!')).json().error_code).toBe('password.reused');
    const done = await setNewPassword(browser, 'Mine-Passw0rd!');
    expect(done.statusCode).toBe(200);
    expect(new URL(done.json().redirect_to).pathname).toMatch(/^\/oidc\/auth\//);

    const next = new TestBrowser(server.app);
    await openLoginScreen(next, server.publicClient);
    expect((await submitLogin(next, 'temp@example.com', 'Mine-Passw0rd!')).json()).toHaveProperty('redirect_to');
  });

  it('asks for a new password once the password is older than the policy allows', async () => {
    await addUser({ db: server.db }, { email: 'aged@example.com', password: 'Aged-Passw0rd!' });
    clock.advance(LIMITS.PASSWORD_MAX_AGE + 60);
    const browser = new TestBrowser(server.app);
    await openLoginScreen(browser, server.publicClient);
    expect((await submitLogin(browser, 'aged@example.com', 'Aged-Passw0rd!')).json()).toEqual({ challenge: 'NEW_PASSWORD_REQUIRED' });
  });

  it('refuses the new-password step to a sign-in that has not reached it', async () => {
    const browser = new TestBrowser(server.app);
    await openLoginScreen(browser, server.publicClient);
    const response = await setNewPassword(browser, 'Mine-Passw0rd!');
    expect(response.statusCode).toBe(409);
    expect(response.json().error_code).toBe('step.out_of_order');
  });

  it('sends a user whose reset an operator forced into recovery, with the email, and only after the right password', async () => {
    await addUser({ db: server.db }, { email: 'forced@example.com', password: 'Forced-Passw0rd!' });
    await requireReset(server.context, 'FORCED@example.com');
    const browser = new TestBrowser(server.app);
    await openLoginScreen(browser, server.publicClient);
    expect((await submitLogin(browser, 'forced@example.com', 'wrong')).json().error_code).toBe('auth.invalid_credentials');
    const login = await submitLogin(browser, 'forced@example.com', 'Forced-Passw0rd!');
    expect(login.json()).toEqual({ challenge: 'RESET_PASSWORD', parameters: { email: 'forced@example.com' } });

    const recovery = new TestBrowser(server.app);
    await recovery.request('POST', `${API}/password/reset`, { email: 'forced@example.com' });
    const code = await mail.latestCode('forced@example.com');
    const reset = await recovery.request('POST', `${API}/password/reset/confirmation`, {
      email: 'forced@example.com',
      code,
      password: await recovery.encrypt('Fresh-Passw0rd!'),
    });
    expect(reset.json()).toEqual({ challenge: 'SUCCESS_PASSWORD_RESET' });
    // Back on the same login screen, the same sign-in now finishes.
    expect((await submitLogin(browser, 'forced@example.com', 'Fresh-Passw0rd!')).json()).toHaveProperty('redirect_to');
  });
});
