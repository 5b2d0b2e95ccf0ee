import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import { LIMITS } from '../../server/limits.ts';
import { totpCodeAt } from '../../server/mfa/totp.ts';
import { issueCredentialNonce, consumeCredentialNonce } from '../../server/store/credential-nonces.ts';
import { listSecurityEvents } from '../../server/store/security-events.ts';
import { findLiveNoticeLink } from '../../server/store/security-notice-links.ts';
import { createTransaction, findTransaction, findTransactionUsingNonce, finishTransactionOfEnabledUser } from '../../server/store/transactions.ts';
import { testBackends } from './support/databases.ts';
import { capturingMailer, fakeClock } from './support/fakes.ts';
import { API, answer, logIn, setUpTotp, type StepAnswer } from './support/mfa.ts';
import { openLoginScreen, submitLogin, TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

/**
 * What a sign-in writes as it passes its password and ends (the throttle's release, the audit event, the browser,
 * the used nonce and factor), on every backend: these are single statements whose parts PGlite and PostgreSQL must
 * both run. The on-disk PGlite runs the same engine as the in-memory one.
 */
const backends = testBackends().filter((backend) => backend.name !== 'pglite-disk');
const TOTP_STEP_SECONDS = 30;

describe.each(backends.map((backend) => [backend.name, backend] as const))('a sign-in on %s', (_name, backend) => {
  describe('with a password only', () => {
    let server: TestApp;
    beforeAll(async () => {
      server = await startTestApp({ backend, env: { MFA_REQUIRED: 'false' } });
    });
    afterAll(async () => {
      await server.close();
    });

    it('forgets an earlier wrong password once the right one signs in, gives the address its attempt back, and records the sign-in and its browser', async () => {
      const user = await addUser({ db: server.db }, { email: 'ends@example.com', password: 'Ends-Passw0rd!' });
      const browser = new TestBrowser(server.app, '192.0.2.61');
      await openLoginScreen(browser, server.publicClient);
      expect((await submitLogin(browser, user.email, 'not-the-password')).statusCode).toBe(401);
      const failures = () => server.db.query<{ failures: number }>('select failures from login_failures where user_id = $1', [user.id]);
      expect((await failures()).rows).toEqual([{ failures: 1 }]);

      expect(answer<StepAnswer>(await submitLogin(browser, user.email, 'Ends-Passw0rd!')).redirect_to).toBeDefined();
      expect((await failures()).rows).toEqual([]);
      const address = await server.db.query<{ failures: number }>('select failures from ip_failures where ip = $1', ['192.0.2.61']);
      expect(address.rows).toEqual([{ failures: 1 }]);
      const oldestFirst = async () => (await listSecurityEvents(server.db, { userId: user.id })).reverse();
      // The refusal is recorded after its answer (recordRefusedSignIn), so a loaded machine may still be writing it.
      await expect.poll(async () => (await oldestFirst()).map((event) => event.kind)).toEqual(['sign_in_failed', 'sign_in']);
      const events = await oldestFirst();
      expect(events[1]).toMatchObject({ ip: '192.0.2.61', detail: { client_id: server.publicClient.clientId, amr: ['pwd'] } });
      const browsers = await server.db.query('select 1 from known_browsers where user_id = $1', [user.id]);
      expect(browsers.rows).toHaveLength(1);
    });

    it('refuses a captured encrypted password sent again', async () => {
      const user = await addUser({ db: server.db }, { email: 'replayed@example.com', password: 'Replayed-Passw0rd!' });
      const browser = new TestBrowser(server.app);
      await openLoginScreen(browser, server.publicClient);
      const password = await browser.encrypt('not-the-password');
      const first = await browser.request('POST', `${API}/auth/login`, { email: user.email, password });
      const replay = await browser.request('POST', `${API}/auth/login`, { email: user.email, password });
      expect(first.json().error_code).toBe('auth.invalid_credentials');
      expect(replay.json().error_code).toBe('credentials.unreadable');
    });
  });

  describe('with an authenticator app', () => {
    const clock = fakeClock(Date.now());
    const mail = capturingMailer();
    let server: TestApp;
    beforeAll(async () => {
      server = await startTestApp({ backend, clock: clock.now, mailer: mail.mailer });
    });
    afterAll(async () => {
      await server.close();
    });

    it('takes a code once, notes the app as used, and tells the owner of a sign-in from a second browser only, with a working "This wasn\'t me" link', async () => {
      const user = { email: 'two-browsers@example.com', password: 'Two-Browsers-Passw0rd!' };
      const { id } = await addUser({ db: server.db }, user);
      const first = new TestBrowser(server.app);
      expect((await logIn(first, { ...server.publicClient, ...user })).answer.challenge).toBe('MFA_SETUP');
      const { secret, done } = await setUpTotp(first, clock.now());
      expect(done.redirect_to).toBeDefined();
      const newBrowserNotices = () => mail.to(user.email).filter((message) => message.subject === 'New sign-in to your account');

      clock.advance(TOTP_STEP_SECONDS);
      const second = new TestBrowser(server.app);
      expect((await logIn(second, { ...server.publicClient, ...user })).answer.challenge).toBe('SOFTWARE_TOKEN_MFA');
      await server.db.query('update mfa_factors set last_used_at = null where user_id = $1', [id]);
      const code = totpCodeAt(secret, clock.now());
      expect(answer<StepAnswer>(await second.request('POST', `${API}/auth/mfa/verification`, { code })).redirect_to).toBeDefined();
      const used = await server.db.query<{ last_used_at: Date | null }>("select last_used_at from mfa_factors where user_id = $1 and kind = 'totp'", [id]);
      expect(used.rows[0]?.last_used_at).not.toBeNull();
      for (let tries = 0; tries < 50 && newBrowserNotices().length === 0; tries += 1) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(newBrowserNotices()).toHaveLength(1);
      const token = /not-me\?token=([A-Za-z0-9_-]+)/.exec(newBrowserNotices()[0]!.text)?.[1];
      expect(await findLiveNoticeLink(server.db, token ?? '', new Date(clock.now()))).toEqual({ userId: id, notice: 'new_browser', sentTo: user.email });

      const third = new TestBrowser(server.app);
      expect((await logIn(third, { ...server.publicClient, ...user })).answer.challenge).toBe('SOFTWARE_TOKEN_MFA');
      const replay = await third.request('POST', `${API}/auth/mfa/verification`, { code });
      expect(replay.json().error_code).toBe('code.invalid');
    });
  });

  describe('whose code cannot be sent', () => {
    const clock = fakeClock(Date.now());
    let mailDown = false;
    const mail = capturingMailer();
    let server: TestApp;
    beforeAll(async () => {
      server = await startTestApp({
        backend,
        clock: clock.now,
        mailer: {
          send: async (message, via) => {
            if (mailDown) throw new Error('the mail server is down');
            await mail.mailer.send(message, via);
          },
        },
      });
    });
    afterAll(async () => {
      await server.close();
    });

    it('counts no failure against the right password while the emailed code cannot go out', async () => {
      const user = await addUser({ db: server.db }, { email: 'mail-down@example.com', password: 'Mail-Down-Passw0rd!' });
      await server.db.query("insert into mfa_factors (id, user_id, kind, confirmed_at) values (gen_random_uuid(), $1, 'email', now())", [user.id]);
      const browser = new TestBrowser(server.app);
      await openLoginScreen(browser, server.publicClient);
      mailDown = true;
      for (let attempt = 0; attempt <= LIMITS.LOGIN_FAILURES_BEFORE_DELAY; attempt += 1) {
        // Past the cooldown, each attempt issues a fresh code, which cannot go out either.
        clock.advance(LIMITS.MFA_RESEND_COOLDOWN + 1);
        expect((await submitLogin(browser, user.email, 'Mail-Down-Passw0rd!')).json().error_code).toBe('server.unavailable');
      }
      expect((await server.db.query('select failures from login_failures where user_id = $1', [user.id])).rows).toEqual([]);
      // Codes the screen said did not go are withdrawn: none waits to be sent later, and none used up the hourly allowance.
      expect(await server.context.outbox.backlog()).toBe(0);
      mailDown = false;
      expect(answer<StepAnswer>(await submitLogin(browser, user.email, 'Mail-Down-Passw0rd!')).challenge).toBe('EMAIL_MFA');
    });
  });

  describe('its store', () => {
    let server: TestApp;
    beforeAll(async () => {
      server = await startTestApp({ backend, env: { MFA_REQUIRED: 'false' } });
    });
    afterAll(async () => {
      await server.close();
    });

    const newTransaction = (interactionUid: string) =>
      createTransaction(server.db, { interactionUid, clientId: server.publicClient.clientId, challenge: 'LOGIN_REQUIRED', expiresAt: new Date(Date.now() + 60_000) });

    it('uses up a credential nonce with the transaction only at a step that takes it', async () => {
      const now = new Date();
      const token = await newTransaction('interaction-nonce');
      const nonce = await issueCredentialNonce(server.db, new Date(now.getTime() + 60_000));
      const elsewhere = await findTransactionUsingNonce(server.db, token, now, nonce, ['SOFTWARE_TOKEN_MFA']);
      expect(elsewhere).toMatchObject({ transaction: { challenge: 'LOGIN_REQUIRED' }, nonceUsed: false });
      const taken = await findTransactionUsingNonce(server.db, token, now, nonce, ['LOGIN_REQUIRED']);
      expect(taken?.nonceUsed).toBe(true);
      expect((await findTransactionUsingNonce(server.db, token, now, nonce, ['LOGIN_REQUIRED']))?.nonceUsed).toBe(false);
      expect(await consumeCredentialNonce(server.db, nonce, now)).toBe(false);
      const other = await issueCredentialNonce(server.db, new Date(now.getTime() + 60_000));
      expect(await findTransactionUsingNonce(server.db, 'x'.repeat(43), now, other, ['LOGIN_REQUIRED'])).toBeUndefined();
      expect(await consumeCredentialNonce(server.db, other, now)).toBe(true);
    });

    it('ends nothing and records nothing for an account disabled while its sign-in ran', async () => {
      const user = await addUser({ db: server.db }, { email: 'disabled-midway@example.com', password: 'Disabled-Passw0rd!' });
      await server.db.query('update users set disabled_at = now() where id = $1', [user.id]);
      const token = await newTransaction('interaction-disabled');
      const now = new Date();
      const ended = await finishTransactionOfEnabledUser(server.db, {
        token,
        challenge: 'LOGIN_REQUIRED',
        userId: user.id,
        rememberUntil: new Date(now.getTime() + 60_000),
        now,
        event: { ip: null, userAgent: null, detail: '{}' },
        browserHash: 'browser-hash',
      });
      expect(ended).toEqual({ outcome: 'disabled' });
      expect(await findTransaction(server.db, token, now)).toBeDefined();
      expect(await listSecurityEvents(server.db, { userId: user.id })).toEqual([]);
      expect((await server.db.query('select 1 from known_browsers where user_id = $1', [user.id])).rows).toEqual([]);
    });
  });
});
