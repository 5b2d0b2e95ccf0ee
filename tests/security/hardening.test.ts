/**
 * The campaign's hardening cases (issues 23 and 27): each finding fixed is probed again on every campaign backend,
 * so none can come back. Each case is a row of the campaign table.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CLIENTS } from '../../server/admin/seed.ts';
import { addCompany, invite } from '../../server/admin/company-operations.ts';
import { addUser } from '../../server/admin/operations.ts';
import { generateRecoveryCodes, recoveryCodeDeps, redeemRecoveryCode } from '../../server/auth/recovery-codes.ts';
import { loadConfig } from '../../server/config.ts';
import { ConfigError } from '../../server/config-readers.ts';
import { LIMITS } from '../../server/limits.ts';
import { checkNoDemoData } from '../../server/production-checks.ts';
import { capturingMailer, fakeClock } from '../server/support/fakes.ts';
import { choosePassword, invitationToken, openInvitation } from '../server/support/invitations.ts';
import { API, logIn } from '../server/support/mfa.ts';
import { userWithTotp } from '../server/support/signed-in.ts';
import { totpCodeAt } from '../../server/mfa/totp.ts';
import { signInToAccountPage } from '../server/support/account.ts';
import { NOT_ASCII_CODES } from '../server/support/not-ascii-codes.ts';
import { holdingStatements } from '../server/support/held-statements.ts';
import { openLoginScreen, submitLogin, TestBrowser } from '../server/support/sign-in.ts';
import { startTestApp, type TestApp } from '../server/support/test-app.ts';
import { campaignBackends, campaignCounter } from './support/campaign.ts';

describe.each(campaignBackends().map((backend) => [backend.name, backend] as const))('hardening on %s', (name, backend) => {
  const clock = fakeClock(Date.now());
  const mail = capturingMailer();
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp({ backend, clock: clock.now, mailer: mail.mailer });
    await addCompany({ db: server.db }, 'Campaign Co');
  }, 120_000);
  afterAll(async () => {
    await server.close();
  });

  it('23.4: an invitation is dead once its account has a password by any path', async () => {
    const counter = campaignCounter(`23.4 invitation after a reset on ${name} (old links that still set a password)`);
    for (let round = 0; round < 3; round += 1) {
      const email = `invited-${round}-${name}@example.com`;
      await invite({ db: server.db, mailer: mail.mailer, config: server.context.config, clock: clock.now }, { email, company: 'Campaign Co' });
      const token = invitationToken(mail.to(email).at(-1)?.text ?? '');
      const opened = new TestBrowser(server.app);
      await openInvitation(opened, server.publicClient, token);
      const reset = new TestBrowser(server.app);
      await reset.request('POST', `${API}/password/reset`, { email });
      const code = await mail.latestCode(email);
      const confirmed = await reset.request('POST', `${API}/password/reset/confirmation`, { email, code, password: await reset.encrypt('Reset-Campaign-Passw0rd!') });
      expect(confirmed.statusCode).toBe(200);
      const late = await choosePassword(opened, 'Invitation-Campaign-Passw0rd!');
      counter.record(late.statusCode === 410 && late.json().error_code === 'invitation.used');
      const link = await new TestBrowser(server.app).request('GET', `${API}/authorize?invitation=${token}`);
      counter.record(link.json().invitation === 'used');
    }
    counter.print();
    expect(counter.failed).toBe(0);
  });

  it('23.9: a refused sign-in answers before its audit record, as for an unknown address', { timeout: 120_000 }, async () => {
    const counter = campaignCounter(`23.9 refused sign-ins on ${name} (existing addresses that waited for their audit record before answering)`);
    const db = await backend.open();
    const hold = holdingStatements(db, 'insert into security_events');
    const held = await startTestApp({ shared: { db: hold.db, masterKey: crypto.randomBytes(32) }, env: { MFA_REQUIRED: 'false' } });
    try {
      const emails = Array.from({ length: 5 }, (_, index) => `audited-${index}-${name}@example.com`);
      for (const email of emails) await addUser({ db }, { email, password: 'Audited-Passw0rd!' });
      const browser = new TestBrowser(held.app);
      await openLoginScreen(browser, held.publicClient);
      for (const email of [...emails, 'nobody-audited@example.com']) {
        const answer = await Promise.race([submitLogin(browser, email, 'Wrong-Passw0rd!'), new Promise<undefined>((resolve) => setTimeout(resolve, 5_000))]);
        counter.record(answer?.statusCode === 401);
      }
    } finally {
      await hold.release();
      await held.close();
      await db.close();
    }
    counter.print();
    expect(counter.failed).toBe(0);
  });

  it('23.10: a code that is not six ASCII digits is a clear 400 at every endpoint that takes one', async () => {
    const counter = campaignCounter(`23.10 non-ASCII codes on ${name} (answers other than a 400 request.invalid)`);
    const user = { email: `codes-${name}@example.com`, password: 'Codes-Campaign-Passw0rd!' };
    await addUser({ db: server.db }, user);
    const page = await signInToAccountPage(server, user, () => {
      clock.advance(LIMITS.TOTP_PERIOD + 1);
      return clock.now();
    });
    const factorId = (await page.call('GET', '/account/factors')).json<{ factors: Array<{ id: string }> }>().factors[0]!.id;
    for (const code of NOT_ASCII_CODES) {
      for (const answer of [await page.call('POST', '/account/step-up', { factorId, code }), await page.call('POST', '/account/email/confirmation', { code })]) {
        counter.record(answer.statusCode === 400 && answer.json().error_code === 'request.invalid');
      }
    }
    counter.print();
    expect(counter.failed).toBe(0);
  });

  it('23.12: wrong authenticator codes escalate: after the first rest, each wrong code rests the factor again', async () => {
    const counter = campaignCounter(`23.12 authenticator-code rounds on ${name} (wrong codes checked after the first rest without resting again)`);
    const email = `totp-escalation-${name}@example.com`;
    const { user } = await userWithTotp(server, email, clock.now());
    const guessAt = async () => {
      const browser = new TestBrowser(server.app);
      await logIn(browser, { ...server.publicClient, email, password: user.password });
      return (code: string) => browser.request('POST', `${API}/auth/mfa/verification`, { code });
    };
    clock.advance(60);
    const wrong = () => totpCodeAt(user.secret, clock.now() + 10 * 60_000);
    const first = await guessAt();
    for (let attempt = 0; attempt < LIMITS.TOTP_MAX_FAILURES; attempt += 1) await first(wrong());
    for (let round = 0; round < 3; round += 1) {
      clock.advance(LIMITS.TOTP_LOCKOUT + 1);
      const guess = await guessAt();
      await guess(wrong());
      counter.record((await guess(wrong())).json().error_code === 'mfa.totp_resting');
    }
    counter.record(mail.to(email).filter((message) => message.subject === 'Several wrong authenticator codes on your account').length === 1);
    counter.print();
    expect(counter.failed).toBe(0);
  });

  it('code cap: past 6 codes an hour, every request for another is a 429 with Retry-After and nothing is sent', async () => {
    const counter = campaignCounter(`code cap on ${name} (requests past the cap answered as sent, or a code mailed)`);
    const email = `capped-${name}@example.com`;
    const password = 'Capped-Campaign-Passw0rd!';
    await addUser({ db: server.db }, { email, password });
    const setup = new TestBrowser(server.app);
    await logIn(setup, { ...server.publicClient, email, password });
    await setup.request('POST', `${API}/auth/2fa/initialization`, { type: 'email' });
    await setup.request('POST', `${API}/auth/2fa/verification`, { code: await mail.latestCode(email) });
    clock.advance(LIMITS.MFA_RESEND_COOLDOWN);
    const browser = new TestBrowser(server.app);
    await logIn(browser, { ...server.publicClient, email, password });
    for (let sent = 2; sent < LIMITS.MFA_CODES_PER_HOUR; sent += 1) {
      clock.advance(LIMITS.MFA_RESEND_COOLDOWN);
      await browser.request('POST', `${API}/auth/mfa/otp/resend/request`, {});
    }
    const mailed = mail.to(email).length;
    for (let request = 0; request < 5; request += 1) {
      clock.advance(LIMITS.MFA_RESEND_COOLDOWN);
      const answer = await browser.request('POST', `${API}/auth/mfa/otp/resend/request`, {});
      counter.record(answer.statusCode === 429 && answer.json().error_code === 'code.too_many_requested' && Number(answer.headers['retry-after']) > 0);
    }
    counter.record(mail.to(email).length === mailed);
    counter.print();
    expect(counter.failed).toBe(0);
  });

  it('23.11: production refuses weak settings, each refusal naming the setting', async () => {
    const counter = campaignCounter(`23.11 weak production settings on ${name} (started, or refused without naming the setting)`);
    const strong = { NODE_ENV: 'production', MASTER_KEY: crypto.randomBytes(32).toString('base64url'), PUBLIC_URL: 'https://sso.example.com', SMTP_URL: 'smtps://u:p@mail.example.com' };
    const weak: Array<[Record<string, string>, string]> = [
      [{ MASTER_KEY: Buffer.alloc(32).toString('base64url') }, 'MASTER_KEY'],
      [{ PUBLIC_URL: 'http://sso.example.com' }, 'PUBLIC_URL'],
      [{ SMTP_URL: 'smtp://u:p@mail.example.com' }, 'SMTP_URL'],
      [{ SEED_DEMO: 'true' }, 'SEED_DEMO'],
    ];
    for (const [setting, named] of weak) {
      try {
        loadConfig({ ...strong, ...setting });
        counter.record(false);
      } catch (error) {
        counter.record(error instanceof ConfigError && error.problems.length === 1 && error.problems[0]!.startsWith(named));
      }
    }
    // The campaign's database was seeded with the demo user, the demo clients and the fapi2 one: production would not start on it.
    await checkNoDemoData(server.db, server.user.email).then(
      () => counter.record(false),
      (error: unknown) => counter.record(error instanceof ConfigError && error.problems.length === DEMO_CLIENTS.length + 2 && error.problems.every((line) => line.startsWith('SEED_DEMO'))),
    );
    counter.print();
    expect(counter.failed).toBe(0);
  });

  it('23.15: names and factor labels refuse bidirectional control characters', async () => {
    const counter = campaignCounter(`23.15 bidi names on ${name} (names or labels with a bidirectional control accepted)`);
    const user = { email: `bidi-${name}@example.com`, password: 'Bidi-Campaign-Passw0rd!' };
    await addUser({ db: server.db }, user);
    const page = await signInToAccountPage(server, user, () => {
      clock.advance(LIMITS.TOTP_PERIOD + 1);
      return clock.now();
    });
    const factorId = (await page.call('GET', '/account/factors')).json<{ factors: Array<{ id: string }> }>().factors[0]!.id;
    for (const control of ['\u061C', '\u200E', '\u200F', '\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069']) {
      const spoofed = `Name${control}tail`;
      for (const answer of [await page.call('POST', '/account/profile', { firstName: spoofed, lastName: 'Smith' }), await page.call('POST', `/account/factors/${factorId}/name`, { label: spoofed })]) {
        counter.record(answer.statusCode === 400);
      }
    }
    counter.print();
    expect(counter.failed).toBe(0);
  });

  it('23.14: every state-changing call takes application/json only', async () => {
    const counter = campaignCounter(`23.14 non-JSON bodies on ${name} (state-changing calls that took a body other than application/json)`);
    const taken: string[] = [];
    const paths = ['/auth/login', '/password/reset', '/password/reset/confirmation', '/register', '/register/otp/verification', '/auth/mfa/verification', '/invitation/acceptance', '/invitation/renewal', '/account/profile', '/account/step-up'];
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      for (const path of paths) {
        const answer = await server.app.inject({ method: 'POST', url: `${API}${path}`, headers: { 'content-type': type }, payload: '{"email":"a@example.com"}' });
        counter.record(answer.statusCode === 415);
        if (answer.statusCode !== 415) taken.push(`${type} ${path}: ${answer.statusCode}`);
      }
    }
    counter.print();
    expect(taken).toEqual([]);
  });

  it('27.8: a wait under a minute says "a few seconds", never "1 minute"', async () => {
    const counter = campaignCounter(`27.8 lockout words on ${name} (waits under a minute worded in minutes)`);
    const email = `waits-${name}@example.com`;
    await addUser({ db: server.db }, { email, password: 'Waits-Campaign-Passw0rd!' });
    const browser = new TestBrowser(server.app, '198.51.100.77');
    await openLoginScreen(browser, server.publicClient);
    for (let failure = 0; failure < LIMITS.LOGIN_FAILURES_BEFORE_DELAY; failure += 1) await submitLogin(browser, email, 'Wrong-Passw0rd!');
    for (let probe = 0; probe < 3; probe += 1) {
      const answer = await submitLogin(browser, email, 'Wrong-Passw0rd!');
      const seconds = Number(answer.headers['retry-after']);
      counter.record(answer.statusCode === 429 && seconds < 60 && answer.json().error_message === 'Too many attempts. Try again in a few seconds, or reset your password.');
    }
    counter.print();
    expect(counter.failed).toBe(0);
  });

  it('23.8: wrong recovery codes spend the account guess budget; codes rest under argon2id', async () => {
    const counter = campaignCounter(`23.8 recovery-code guesses on ${name} (guesses past the budget answered other than 429, codes not under argon2id)`);
    const email = `recovery-${name}@example.com`;
    const user = await addUser({ db: server.db }, { email, password: 'Recovery-Campaign-Passw0rd!' });
    const deps = recoveryCodeDeps(server.context);
    const codes = await generateRecoveryCodes(deps, user.id, new Date(clock.now()));
    const stored = await server.db.query<{ code_hash: string }>('select code_hash from recovery_codes where user_id = $1', [user.id]);
    for (const row of stored.rows) counter.record(row.code_hash.startsWith('$argon2id$'));
    const guesses = LIMITS.ONE_TIME_CODE_MAX_FAILURES + 5;
    const outcomes = await Promise.all(Array.from({ length: guesses }, (_, index) => redeemRecoveryCode(deps, user.id, `2345-6789-${String(index).padStart(4, 'A')}`, new Date(clock.now()))));
    counter.record(outcomes.filter((outcome) => outcome.kind === 'invalid').length === LIMITS.ONE_TIME_CODE_MAX_FAILURES);
    const right = await redeemRecoveryCode(deps, user.id, codes[0]!, new Date(clock.now()));
    counter.record(right.kind === 'too_many_attempts');
    counter.print();
    expect(counter.failed).toBe(0);
  });
});
