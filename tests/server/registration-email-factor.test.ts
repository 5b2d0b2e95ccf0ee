/**
 * Email codes chosen as the second factor at sign-up: the address was verified by the registration code a moment ago,
 * so the factor is set up at once, without a second code; the sign-up ends with the account's first recovery codes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturingMailer } from './support/fakes.ts';
import { API, answer, type StepAnswer } from './support/mfa.ts';
import { browserAtSignIn, submitRegistration, submitRegistrationCode } from './support/registration.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { registrationSuccess } from '../../server/sign-in/registration-success.ts';
import { recoveryCodesLeft } from '../../server/store/recovery-codes.ts';

describe('email codes chosen at sign-up', () => {
  const mail = capturingMailer();
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp({ mailer: mail.mailer });
  });
  afterAll(async () => {
    await server.close();
  });

  it('are set up without a second code, and the sign-up ends', async () => {
    const email = 'email-factor@example.com';
    const browser = await browserAtSignIn(server);
    await submitRegistration(browser, { email });
    const verified = answer<StepAnswer>(await submitRegistrationCode(browser, await mail.latestCode(email)));
    expect(verified).toMatchObject({ challenge: 'MFA_SETUP', parameters: { registration: true } });
    const codesBefore = mail.sent.filter((message) => message.to === email && /\b\d{6}\b/.test(message.text)).length;
    const done = answer<StepAnswer>(await browser.request('POST', `${API}/auth/2fa/initialization`, { type: 'email' }));
    expect(done.challenge).toBe('SUCCESS_REGISTRATION');
    expect(done.redirect_to).toMatch(/\/oidc\/auth\//);
    expect(mail.sent.filter((message) => message.to === email && /\b\d{6}\b/.test(message.text)).length).toBe(codesBefore);
  });
  it("end with the new account's first recovery codes, made once, right after the factor was set up", async () => {
    const email = 'first-codes@example.com';
    const browser = await browserAtSignIn(server);
    await submitRegistration(browser, { email });
    answer<StepAnswer>(await submitRegistrationCode(browser, await mail.latestCode(email)));
    const done = answer<StepAnswer>(await browser.request('POST', `${API}/auth/2fa/initialization`, { type: 'email' }));
    expect(done.challenge).toBe('SUCCESS_REGISTRATION');
    const codes = done.parameters?.recovery_codes as string[];
    expect(codes).toHaveLength(10);
    const user = await server.db.query<{ id: string }>('select id from users where email = $1', [email]);
    const userId = user.rows[0]!.id;
    expect((await recoveryCodesLeft(server.db, userId)).left).toBe(10);
    // A set exists now: another end of a sign-up (or a later one) makes none and shows none.
    expect(await registrationSuccess(server.context, userId, { redirect_to: 'https://app.example/cb' })).toEqual({ challenge: 'SUCCESS_REGISTRATION', redirect_to: 'https://app.example/cb' });
  });
});
