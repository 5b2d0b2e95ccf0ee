import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import { LIMITS } from '../../server/limits.ts';
import { capturingMailer, fakeClock } from '../server/support/fakes.ts';
import { API, logIn } from '../server/support/mfa.ts';
import { otherCode } from '../server/support/registration.ts';
import { openLoginScreen, submitLogin, TestBrowser } from '../server/support/sign-in.ts';
import { startTestApp, type TestApp } from '../server/support/test-app.ts';
import { campaignBackends, campaignCounter } from './support/campaign.ts';

const WRONG_PER_CODE = LIMITS.ONE_TIME_CODE_MAX_FAILURES - 1;

describe.each(campaignBackends().map((backend) => [backend.name, backend] as const))('guessing codes on %s', (name, backend) => {
  const clock = fakeClock(Date.now());
  const mail = capturingMailer();
  const counter = campaignCounter(`code guesses on ${name} (right codes accepted after the budget was spent)`);
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp({ backend, clock: clock.now, mailer: mail.mailer });
  }, 120_000);
  afterAll(async () => {
    counter.print();
    await server.close();
  });

  it('kills every reset code once 5 wrong ones were entered across three codes, the first code included', async () => {
    const owner = { email: `reset-guess-${name}@example.com`, password: 'Guarded-Passw0rd!' };
    await addUser({ db: server.db }, owner);
    const browser = new TestBrowser(server.app);
    const confirm = async (code: string) =>
      browser.request('POST', `${API}/password/reset/confirmation`, { email: owner.email, code, password: await browser.encrypt('Brand-New-Passw0rd!') });
    const codes: string[] = [];
    for (let request = 0; request < 3; request += 1) {
      await server.app.inject({ method: 'POST', url: `${API}/password/reset`, headers: { 'content-type': 'application/json' }, payload: { email: owner.email } });
      const code = await mail.latestCode(owner.email);
      if (!codes.includes(code)) codes.push(code);
      for (let wrong = 0; wrong < WRONG_PER_CODE; wrong += 1) {
        const answer = await confirm(otherCode(otherCode(code)));
        counter.record(answer.statusCode !== 200);
      }
      clock.advance(60);
    }
    for (const code of codes) {
      const answer = await confirm(code);
      counter.record(answer.statusCode !== 200);
      expect(answer.statusCode).toBe(429);
      expect(answer.json().error_code).toBe('code.too_many_attempts');
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('kills every emailed sign-in code once 5 wrong ones were entered across resends', async () => {
    const browser = new TestBrowser(server.app);
    // The demo user's second factor is set up by email first.
    const { answer: first } = await logIn(browser, { ...server.publicClient, email: server.user.email, password: server.user.password });
    expect(first.challenge).toBe('MFA_SETUP');
    await browser.request('POST', `${API}/auth/2fa/initialization`, { type: 'email' });
    expect((await browser.request('POST', `${API}/auth/2fa/verification`, { code: await mail.latestCode(server.user.email) })).statusCode).toBe(200);

    clock.advance(LIMITS.MFA_RESEND_COOLDOWN);
    const signIn = new TestBrowser(server.app);
    await logIn(signIn, { ...server.publicClient, email: server.user.email, password: server.user.password });
    const codes: string[] = [];
    for (let send = 0; send < 3; send += 1) {
      if (send > 0) {
        clock.advance(LIMITS.MFA_RESEND_COOLDOWN);
        expect((await signIn.request('POST', `${API}/auth/mfa/otp/resend/request`, {})).statusCode).toBe(200);
      }
      const code = await mail.latestCode(server.user.email);
      codes.push(code);
      for (let wrong = 0; wrong < WRONG_PER_CODE; wrong += 1) {
        counter.record((await signIn.request('POST', `${API}/auth/mfa/verification`, { code: otherCode(otherCode(code)) })).statusCode !== 200);
      }
    }
    for (const code of codes) {
      const answer = await signIn.request('POST', `${API}/auth/mfa/verification`, { code });
      counter.record(answer.statusCode !== 200);
      expect(answer.statusCode).toBe(429);
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(counter.failed).toBe(0);
  });
});

describe('a shared address under attack', () => {
  const counter = campaignCounter('shared-address sign-ins (attacker guesses, then the bystander, who must get in)');
  let server: TestApp;
  // A still clock: the probes below compare whole answers, the wait's seconds included, which must not tick between them.
  const clock = fakeClock(Date.now());
  beforeAll(async () => {
    server = await startTestApp({ env: { MFA_REQUIRED: 'false' }, clock: clock.now });
  }, 120_000);
  afterAll(async () => {
    counter.print();
    await server.close();
  });

  it('lets a user without failures sign in while an attacker hammers wrong passwords from the same address', { timeout: 120_000 }, async () => {
    const gateway = '192.0.2.10';
    const bystander = { email: 'bystander@example.com', password: 'Bystander-Passw0rd!' };
    await addUser({ db: server.db }, bystander);
    const attacker = new TestBrowser(server.app, gateway);
    await openLoginScreen(attacker, server.publicClient);
    const guesses = LIMITS.IP_FAILURES_PER_WINDOW + 20;
    for (let start = 0; start < guesses; start += 4) {
      const batch = Array.from({ length: 4 }, (_, index) => submitLogin(attacker, `victim${(start + index) % 7}@example.com`, `guess-${start + index}`));
      // Each guess is refused: as a wrong password, or, once that address waits, with the wait.
      for (const answer of await Promise.all(batch)) counter.record(answer.statusCode === 401 || answer.json().error_code === 'auth.too_many_attempts');
    }
    // From the slowed address, an existing account and an unknown one, each tried for the first time, still answer
    // alike: status, body, headers. (The hammered addresses themselves now wait, told so like any waiting account.)
    const probe = async (email: string) => {
      const answer = await submitLogin(attacker, email, 'Wrong-Passw0rd!');
      return { status: answer.statusCode, body: answer.body, retryAfter: answer.headers['retry-after'] };
    };
    expect((await probe(bystander.email.replace('bystander', 'victim0'))).status).toBe(429);
    const existing = await probe('first-try@example.com');
    await addUser({ db: server.db }, { email: 'known@example.com', password: 'Known-Passw0rd!' });
    expect(await probe('known@example.com')).toEqual(existing);
    expect(await probe('nobody-at-all@example.com')).toEqual(existing);
    // The probe put one failure on known@; the bystander has none and gets in from the same address.
    const colleague = new TestBrowser(server.app, gateway);
    await openLoginScreen(colleague, server.publicClient);
    const answer = await submitLogin(colleague, bystander.email, bystander.password);
    counter.record(answer.statusCode === 200);
    expect(answer.json()).toHaveProperty('redirect_to');
    expect(counter.failed).toBe(0);
  });
});
