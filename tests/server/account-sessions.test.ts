import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import { LIMITS } from '../../server/limits.ts';
import { totpCodeAt } from '../../server/mfa/totp.ts';
import { listSecurityEvents } from '../../server/store/security-events.ts';
import { signInToAccountPage } from './support/account.ts';
import { capturingMailer, fakeClock } from './support/fakes.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_ON_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

interface SessionList {
  sessions: Array<{ id: string; browser: string; os: string; ip: string; apps: string[]; startedAt: string; lastActiveAt: string; current: boolean }>;
}

describe('sessions on the account page (MFA on, the default)', () => {
  const clock = fakeClock(Date.now());
  const mail = capturingMailer();
  let server: TestApp;
  let users = 0;
  const tick = () => {
    clock.advance(LIMITS.TOTP_PERIOD + 1);
    return clock.now();
  };

  beforeAll(async () => {
    server = await startTestApp({ clock: clock.now, mailer: mail.mailer });
  });
  afterAll(async () => {
    await server?.close();
  });

  async function twoBrowsers() {
    users += 1;
    const user = { email: `sessions-${users}@example.com`, password: 'Sessions-Passw0rd!' };
    await addUser({ db: server.db }, user);
    const laptop = await signInToAccountPage(server, user, tick, '203.0.113.7', FIREFOX_ON_WINDOWS);
    const phone = await signInToAccountPage(server, { ...user, secret: laptop.secret }, tick, '198.51.100.23', SAFARI_ON_IPHONE);
    // Ending another browser's session needs a fresh factor (tests/security/account-takeover.test.ts); the laptop proves one.
    const [factor] = (await laptop.call('GET', '/account/factors')).json<{ factors: Array<{ id: string }> }>().factors;
    expect((await laptop.call('POST', '/account/step-up', { factorId: factor!.id, code: totpCodeAt(laptop.secret, tick()) })).statusCode).toBe(200);
    return { user, laptop, phone };
  }

  it('lists every signed-in browser with its browser, system, address and apps, and marks this device', async () => {
    const { laptop } = await twoBrowsers();
    const { sessions } = (await laptop.call('GET', '/account/sessions')).json<SessionList>();
    expect(sessions).toHaveLength(2);
    expect(sessions[0]).toMatchObject({ current: true, browser: 'Firefox 128', os: 'Windows 10', ip: '203.0.113.7', apps: ['My Account'] });
    expect(sessions[1]).toMatchObject({ current: false, browser: 'Safari 17', os: expect.stringMatching(/^iOS/), ip: '198.51.100.23' });
    expect(Date.parse(sessions[1]!.startedAt)).toBeLessThanOrEqual(Date.parse(sessions[1]!.lastActiveAt));
  });

  it('signs out one session: its token stops working at once and the audit trail says so', async () => {
    const { user, laptop, phone } = await twoBrowsers();
    const { sessions } = (await laptop.call('GET', '/account/sessions')).json<SessionList>();
    const other = sessions.find((session) => !session.current)!;
    const ended = await laptop.call('POST', `/account/sessions/${other.id}/sign-out`);
    expect(ended.statusCode, ended.body).toBe(200);
    const refused = await phone.call('GET', '/account/factors');
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ error_code: 'account.signed_out' });
    const userinfo = await server.app.inject({ method: 'GET', url: '/oidc/me', headers: { authorization: `Bearer ${phone.token}` } });
    expect(userinfo.statusCode).toBe(401);
    expect((await laptop.call('GET', '/account/sessions')).json<SessionList>().sessions).toHaveLength(1);
    const userId = (await server.db.query<{ id: string }>('select id from users where email = $1', [user.email])).rows[0]!.id;
    const events = await listSecurityEvents(server.db, { userId });
    expect(events.map((event) => event.kind)).toContain('session_ended');
    expect((await laptop.call('POST', `/account/sessions/${other.id}/sign-out`)).statusCode).toBe(404);
  });

  it('signs out all other sessions and keeps this one', async () => {
    const { laptop, phone } = await twoBrowsers();
    const answer = await laptop.call('POST', '/account/sessions/others/sign-out');
    expect(answer.json()).toEqual({ ended: 1, trustedDevicesRevoked: 0 });
    expect((await phone.call('GET', '/account/sessions')).statusCode).toBe(401);
    const { sessions } = (await laptop.call('GET', '/account/sessions')).json<SessionList>();
    expect(sessions).toEqual([expect.objectContaining({ current: true })]);
  });

  it('never signs out another user\'s session', async () => {
    const first = await twoBrowsers();
    const second = await twoBrowsers();
    const { sessions } = (await second.laptop.call('GET', '/account/sessions')).json<SessionList>();
    expect((await first.laptop.call('POST', `/account/sessions/${sessions[0]!.id}/sign-out`)).statusCode).toBe(404);
    expect((await second.laptop.call('GET', '/account/sessions')).statusCode).toBe(200);
  });

  it('shows the security activity, newest first, with time, address and browser', async () => {
    const { laptop } = await twoBrowsers();
    const { sessions } = (await laptop.call('GET', '/account/sessions')).json<SessionList>();
    await laptop.call('POST', `/account/sessions/${sessions.find((session) => !session.current)!.id}/sign-out`);
    const { events } = (await laptop.call('GET', '/account/activity')).json<{ events: Array<{ kind: string; at: string; ip: string | null; browser: string }> }>();
    expect(events[0]).toMatchObject({ kind: 'session_ended' });
    expect(events).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'sign_in', ip: '198.51.100.23', browser: 'Safari 17' })]));
    expect(events.length).toBeLessThanOrEqual(LIMITS.SECURITY_EVENTS_LISTED);
  });
});
