/**
 * Nothing secret reaches the logs: a sign-up, sign-ins with each second factor (emailed code, texted code,
 * authenticator app) and a password reset run with the server logging everything (trace), and then the log is
 * searched for every password, code, cookie and token the run used.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCodeAt } from '../../server/mfa/totp.ts';
import { followToClient } from '../server/support/client-return.ts';
import { capturingMailer, fakeClock } from '../server/support/fakes.ts';
import { API, answer, capturingSms, logIn, type StepAnswer } from '../server/support/mfa.ts';
import { browserAtSignIn, NEW_USER_PASSWORD, submitRegistration, submitRegistrationCode } from '../server/support/registration.ts';
import { exchangeCode, TestBrowser } from '../server/support/sign-in.ts';
import { startTestApp, type TestApp } from '../server/support/test-app.ts';

const PHONE = '+447700900123';
const RESET_PASSWORD = 'Harbour-Violet-77?';

describe('the logs of a whole run', () => {
  const clock = fakeClock(Date.now());
  const mail = capturingMailer();
  const texts = capturingSms();
  const logLines: string[] = [];
  const secrets = new Set<string>();
  let server: TestApp;

  beforeAll(async () => {
    server = await startTestApp({ clock: clock.now, mailer: mail.mailer, sms: texts.sms, env: { LOG_LEVEL: 'trace' }, logStream: { write: (line) => logLines.push(line) } });
  });
  afterAll(async () => {
    await server.close();
  });

  /** Keeps what a browser holds (cookies) and what it sent, so the scan looks for them. */
  const remember = (...values: (string | undefined)[]) => values.forEach((value) => value && secrets.add(value));
  const rememberCookies = (browser: TestBrowser) => remember(...browser.jar.header('/').split('; ').map((pair) => pair.slice(pair.indexOf('=') + 1)), ...browser.jar.header('/oidc/').split('; ').map((pair) => pair.slice(pair.indexOf('=') + 1)));

  /** Follows a finished sign-in to the client and redeems its code; remembers the code and the tokens. */
  async function finish(browser: TestBrowser, done: StepAnswer, codeVerifier: string): Promise<void> {
    const callback = await followToClient(browser, String(done.redirect_to), server.publicClient.redirectUri);
    const tokens = answer<Record<string, string>>(await exchangeCode(server.app, server.publicClient, callback, codeVerifier));
    remember(callback.searchParams.get('code') ?? undefined, codeVerifier, tokens.access_token, tokens.id_token, tokens.refresh_token);
    const me = await server.app.inject({ method: 'GET', url: '/oidc/me', headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(me.statusCode).toBe(200);
    rememberCookies(browser);
  }

  it('holds no password, code, cookie or token after sign-up, each second factor and a password reset', async () => {
    // Sign-up, with the emailed registration code, then email as the second factor (set up with no second code).
    const email = 'logged@example.com';
    const signUp = await browserAtSignIn(server);
    answer(await submitRegistration(signUp, { email }));
    const registrationCode = await mail.latestCode(email);
    remember(NEW_USER_PASSWORD, registrationCode);
    const registered = answer<StepAnswer>(await submitRegistrationCode(signUp, registrationCode));
    expect(registered.challenge).toBe('MFA_SETUP');
    // The address was just proved by the registration code, so choosing email codes sets the factor up at once.
    expect(answer<StepAnswer>(await signUp.request('POST', `${API}/auth/2fa/initialization`, { type: 'email' })).challenge).toBe('SUCCESS_REGISTRATION');
    rememberCookies(signUp);

    // Sign-in with the emailed code.
    clock.advance(120);
    const byEmail = new TestBrowser(server.app);
    const emailLogin = await logIn(byEmail, { ...server.publicClient, email, password: NEW_USER_PASSWORD });
    expect(emailLogin.answer.challenge).toBe('EMAIL_MFA');
    const emailCode = await mail.latestCode(email);
    remember(emailCode);
    await finish(byEmail, answer<StepAnswer>(await byEmail.request('POST', `${API}/auth/mfa/verification`, { code: emailCode })), emailLogin.codeVerifier);

    // The demo user sets up texts, then signs in with a texted code.
    const demo = { ...server.publicClient, email: server.user.email, password: server.user.password };
    const smsSetup = new TestBrowser(server.app);
    expect((await logIn(smsSetup, demo)).answer.challenge).toBe('MFA_SETUP');
    answer(await smsSetup.request('POST', `${API}/auth/2fa/initialization`, { type: 'sms' }));
    answer(await smsSetup.request('POST', `${API}/auth/2fa/initialization`, { phone: PHONE }));
    const smsSetupCode = texts.latestCode(PHONE);
    remember(smsSetupCode);
    answer(await smsSetup.request('POST', `${API}/auth/2fa/verification`, { code: smsSetupCode }));
    clock.advance(120);
    const bySms = new TestBrowser(server.app);
    const smsLogin = await logIn(bySms, demo);
    expect(smsLogin.answer.challenge).toBe('SMS_MFA');
    const smsCode = texts.latestCode(PHONE);
    remember(smsCode);
    await finish(bySms, answer<StepAnswer>(await bySms.request('POST', `${API}/auth/mfa/verification`, { code: smsCode })), smsLogin.codeVerifier);

    // The demo user swaps texts for an authenticator app, then signs in with it.
    const user = await server.db.query<{ id: string }>('select id from users where email = $1', [server.user.email]);
    await server.db.query('delete from mfa_factors where user_id = $1', [user.rows[0]!.id]);
    clock.advance(120);
    const totpSetup = new TestBrowser(server.app);
    expect((await logIn(totpSetup, demo)).answer.challenge).toBe('MFA_SETUP');
    const setup = answer<StepAnswer>(await totpSetup.request('POST', `${API}/auth/2fa/initialization`, { type: 'totp' }));
    const secret = String(setup.parameters?.secret);
    const totpSetupCode = totpCodeAt(secret, clock.now());
    remember(secret, totpSetupCode);
    answer(await totpSetup.request('POST', `${API}/auth/2fa/verification`, { code: totpSetupCode }));
    clock.advance(120);
    const byTotp = new TestBrowser(server.app);
    const totpLogin = await logIn(byTotp, demo);
    expect(totpLogin.answer.challenge).toBe('SOFTWARE_TOKEN_MFA');
    const totpCode = totpCodeAt(secret, clock.now());
    remember(totpCode);
    await finish(byTotp, answer<StepAnswer>(await byTotp.request('POST', `${API}/auth/mfa/verification`, { code: totpCode })), totpLogin.codeVerifier);

    // A password reset by emailed code.
    const reset = new TestBrowser(server.app);
    expect((await reset.request('POST', `${API}/password/reset`, { email })).statusCode).toBe(200);
    const resetCode = await mail.latestCode(email);
    remember(resetCode, RESET_PASSWORD);
    const confirmed = await reset.request('POST', `${API}/password/reset/confirmation`, { email, code: resetCode, password: await reset.encrypt(RESET_PASSWORD) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);

    const log = logLines.join('');
    // Digits-only secrets (codes) count only as whole numbers, so a timestamp holding the same digits is no leak.
    const leaks = [...secrets].filter((value) => (/^\d+$/.test(value) ? new RegExp(`(?<!\\d)${value}(?!\\d)`).test(log) : log.includes(value)));
    console.log(`logs: ${logLines.length} lines scanned for ${secrets.size} secrets, ${leaks.length} found`);
    // The capture works: the requests themselves are in the log, by path.
    expect(log).toContain(`${API}/auth/mfa/verification`);
    expect(logLines.length).toBeGreaterThan(50);
    expect(secrets.size).toBeGreaterThan(20);
    expect(leaks).toEqual([]);
  });
});
