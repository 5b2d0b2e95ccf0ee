import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import { LIMITS } from '../../server/limits.ts';
import { listSecurityEvents, recordSecurityEvent } from '../../server/store/security-events.ts';
import { findCredentialsByEmail } from '../../server/store/users.ts';
import { testBackends } from './support/databases.ts';
import { capturingMailer, fakeClock } from './support/fakes.ts';
import { API, answer, logIn, setUpTotp, type StepAnswer } from './support/mfa.ts';
import { submitLogin, TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

describe.each(testBackends().map((backend) => [backend.name, backend] as const))('the audit trail on %s', (_name, backend) => {
  it("lists a user's events newest first, at most 50, and everyone's since a time", async () => {
    const db = await backend.open();
    try {
      const ids = await db.query<{ id: string }>(
        "insert into users (id, email, email_normalized, password_hash) values (gen_random_uuid(), 'a@example.com', 'a@example.com', 'x'), (gen_random_uuid(), 'b@example.com', 'b@example.com', 'x') returning id",
      );
      const [a, b] = ids.rows.map((row) => row.id);
      const start = Date.UTC(2026, 0, 1);
      for (let minute = 0; minute < 60; minute += 1) {
        await recordSecurityEvent(db, { userId: a!, kind: 'sign_in_failed', at: new Date(start + minute * 60_000), ip: '203.0.113.9', userAgent: 'x'.repeat(2000) });
      }
      await recordSecurityEvent(db, { userId: b!, kind: 'sign_in', at: new Date(start + 90 * 60_000), detail: { client_id: 'app' } });

      const mine = await listSecurityEvents(db, { userId: a });
      expect(mine).toHaveLength(LIMITS.SECURITY_EVENTS_LISTED);
      expect(mine[0]!.at).toEqual(new Date(start + 59 * 60_000));
      expect(mine.every((event) => event.userId === a && event.ip === '203.0.113.9')).toBe(true);
      expect(mine[0]!.userAgent).toHaveLength(LIMITS.SECURITY_EVENT_USER_AGENT_MAX);

      const recent = await listSecurityEvents(db, { since: new Date(start + 58 * 60_000) });
      expect(recent.map((event) => [event.kind, event.userId])).toEqual([['sign_in', b], ['sign_in_failed', a], ['sign_in_failed', a]]);
      expect(recent[0]!.detail).toEqual({ client_id: 'app' });
    } finally {
      await db.close();
    }
  });
});

describe('security events a sign-in records', () => {
  const clock = fakeClock(Date.now());
  const mail = capturingMailer();
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp({ clock: clock.now, mailer: mail.mailer });
  });
  afterAll(async () => {
    await server.close();
  });

  const eventsOf = async (email: string) => {
    const found = await findCredentialsByEmail(server.db, email);
    return (await listSecurityEvents(server.db, { userId: found!.user.id })).reverse();
  };

  it('records the factor added and the sign-in, with the address and browser it came from', async () => {
    const user = { email: 'audited@example.com', password: 'Audited-Passw0rd!' };
    await addUser({ db: server.db }, user);
    const browser = new TestBrowser(server.app, '198.51.100.7');
    const { answer: login } = await logIn(browser, { ...server.publicClient, ...user });
    expect(login.challenge).toBe('MFA_SETUP');
    const { done } = await setUpTotp(browser, clock.now());
    expect(done.redirect_to).toBeDefined();
    const events = await eventsOf(user.email);
    expect(events.map((event) => event.kind)).toEqual(['factor_added', 'sign_in']);
    expect(events[0]!.detail).toEqual({ factor_kind: 'totp' });
    expect(events[1]!.detail).toMatchObject({ client_id: server.publicClient.clientId });
    expect(events.every((event) => event.ip === '198.51.100.7' && event.userAgent === 'lightMyRequest')).toBe(true);
  });

  it('records each failed sign-in of an account, and the lockout when the waits begin', async () => {
    const user = { email: 'guessed@example.com', password: 'Guessed-Passw0rd!' };
    await addUser({ db: server.db }, user);
    const browser = new TestBrowser(server.app, '203.0.113.50');
    await logIn(browser, { ...server.publicClient, ...user, password: 'wrong' }).catch(() => undefined);
    for (let failure = 1; failure < LIMITS.LOGIN_FAILURES_BEFORE_DELAY; failure += 1) await submitLogin(browser, user.email, 'wrong');
    // The records are written after each answer (so an existing address answers as fast as an unknown one).
    await expect
      .poll(async () => (await eventsOf(user.email)).map((event) => event.kind))
      .toEqual([...Array<string>(LIMITS.LOGIN_FAILURES_BEFORE_DELAY).fill('sign_in_failed'), 'lockout_started']);
    const events = await eventsOf(user.email);
    expect(events.at(-1)!.detail).toEqual({ failures: LIMITS.LOGIN_FAILURES_BEFORE_DELAY, wait_seconds: 1 });
    expect(events[0]!.ip).toBe('203.0.113.50');
  });

  it('records a password reset by emailed code', async () => {
    const user = { email: 'reset@example.com', password: 'Before-Passw0rd!' };
    await addUser({ db: server.db }, user);
    const browser = new TestBrowser(server.app, '192.0.2.33');
    await logIn(browser, { ...server.publicClient, ...user, password: 'forgotten' }).catch(() => undefined);
    answer<StepAnswer>(await browser.request('POST', `${API}/password/reset`, { email: user.email }));
    const code = await mail.latestCode(user.email);
    const confirmed = await browser.request('POST', `${API}/password/reset/confirmation`, {
      email: user.email,
      code,
      password: await browser.encrypt('After-Passw0rd!42'),
    });
    expect(confirmed.json()).toEqual({ challenge: 'SUCCESS_PASSWORD_RESET' });
    const events = await eventsOf(user.email);
    expect(events.map((event) => event.kind)).toEqual(['sign_in_failed', 'password_reset']);
    expect(events[1]!.ip).toBe('192.0.2.33');
  });
});
