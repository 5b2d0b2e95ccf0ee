import { afterEach, describe, expect, it } from 'vitest';
import { totpCodeAt } from '../../server/mfa/totp.ts';
import { capturingMailer } from './support/fakes.ts';
import { API, answer, type StepAnswer } from './support/mfa.ts';
import { browserAtSignIn, submitRegistration, submitRegistrationCode } from './support/registration.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

describe('a second factor during sign-up', () => {
  let server: TestApp | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('has the new user set up an authenticator app before going back, through register/totp', async () => {
    const mail = capturingMailer();
    server = await startTestApp({ mailer: mail.mailer });
    const browser = await browserAtSignIn(server);
    await submitRegistration(browser, { email: 'fresh@example.com' });
    const verified = answer<StepAnswer>(await submitRegistrationCode(browser, await mail.latestCode('fresh@example.com')));
    expect(verified).toMatchObject({ challenge: 'MFA_SETUP', parameters: { registration: true } });
    const outside = await browser.request('POST', `${API}/register/totp/verification`, { code: '000000' });
    expect(outside.statusCode).toBe(409);
    const setup = answer<StepAnswer>(await browser.request('POST', `${API}/register/totp`, { type: 'totp' }));
    expect(setup).toMatchObject({ challenge: 'SETUP_SOFTWARE_TOKEN_MFA', parameters: { registration: true, account: 'fresh@example.com', issuer: 'Payments Network – Account Area' } });
    expect(setup.parameters?.mfa_code).not.toContain(String(setup.parameters?.secret));
    const reloaded = answer<StepAnswer>(await browser.request('GET', `${API}/auth/2fa/initialization`));
    expect(reloaded.parameters?.secret).toBe(setup.parameters?.secret);
    const done = answer<StepAnswer>(await browser.request('POST', `${API}/register/totp/verification`, { code: totpCodeAt(String(setup.parameters?.secret), Date.now()) }));
    expect(done.challenge).toBe('SUCCESS_REGISTRATION');
    expect(done.redirect_to).toMatch(/\/oidc\/auth\//);
  });

  it('refuses register/totp to a sign-in that is not a sign-up', async () => {
    server = await startTestApp();
    const browser = await browserAtSignIn(server);
    await browser.request('POST', `${API}/auth/login`, { email: server.user.email, password: await browser.encrypt(server.user.password) });
    const refused = await browser.request('POST', `${API}/register/totp`, { type: 'totp' });
    expect(refused.json().error_code).toBe('step.out_of_order');
  });

  it('skips the setup when mfa-disable-skip-registration is on', async () => {
    const mail = capturingMailer();
    server = await startTestApp({ mailer: mail.mailer, flags: { 'mfa-disable-skip-registration': true } });
    const browser = await browserAtSignIn(server);
    await submitRegistration(browser, { email: 'skipper@example.com' });
    const verified = answer<StepAnswer>(await submitRegistrationCode(browser, await mail.latestCode('skipper@example.com')));
    expect(verified.challenge).toBe('SUCCESS_REGISTRATION');
  });
});
