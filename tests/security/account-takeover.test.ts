import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import { LIMITS } from '../../server/limits.ts';
import { totpCodeAt } from '../../server/mfa/totp.ts';
import { sealPasswordChange, signInToAccountPage, type AccountPage } from '../server/support/account.ts';
import { capturingMailer, fakeClock } from '../server/support/fakes.ts';
import { API, answer, logIn, type StepAnswer } from '../server/support/mfa.ts';
import { TestBrowser } from '../server/support/sign-in.ts';
import { startTestApp, type TestApp } from '../server/support/test-app.ts';
import { campaignBackends, campaignCounter } from './support/campaign.ts';

const DAY = 24 * 3600;
const TRUST_COOKIE = 'sso_trust';
const UNDO_LINK = /undo this change: http:\/\/localhost:8080\/auth\/not-me\?token=([A-Za-z0-9_-]{43})/;
const NOT_ME_LINK = /This wasn't me: http:\/\/localhost:8080\/auth\/not-me\?token=([A-Za-z0-9_-]{43})/;

describe.each(campaignBackends().map((backend) => [backend.name, backend] as const))('a stolen account-page session on %s', (name, backend) => {
  const clock = fakeClock(Date.now());
  const mail = capturingMailer();
  const counters = {
    freshFactor: campaignCounter(`23.1 email change needs a fresh factor, and the old address can undo it (${name})`),
    oracle: campaignCounter(`23.2 email change answers alike for a taken address (${name})`),
    cap: campaignCounter(`23.6 email change mails are capped (${name})`),
    trusted: campaignCounter(`23.7 password change and sign out everywhere revoke trusted browsers (${name})`),
    stepUp: campaignCounter(`23.15 every takeover call needs a fresh factor (${name})`),
  };
  let server: TestApp;
  let people = 0;
  const tick = () => {
    clock.advance(LIMITS.TOTP_PERIOD + 1);
    return clock.now();
  };
  /** The sign-in's own factor counts as a step-up for a while: a stolen session is one past that. */
  const goStale = () => clock.advance(LIMITS.ACCOUNT_STEP_UP_TTL + 1);

  beforeAll(async () => {
    server = await startTestApp({ backend, clock: clock.now, mailer: mail.mailer });
  }, 120_000);
  afterAll(async () => {
    for (const counter of Object.values(counters)) counter.print();
    await server.close();
  });

  async function newAccount() {
    people += 1;
    const user = { email: `owner-${people}-${name}@example.com`, password: 'Owner-Passw0rd!' };
    await addUser({ db: server.db }, user);
    // The first sign-in sets the app up; the page is a second one, which proved the app (a step-up, for a while).
    const first = await signInToAccountPage(server, user, tick);
    const page = await signInToAccountPage(server, { ...user, secret: first.secret }, tick);
    const userId = (await server.db.query<{ id: string }>('select id from users where email = $1', [user.email])).rows[0]!.id;
    return { user: { ...user, secret: page.secret }, page, userId };
  }

  async function stepUp(page: AccountPage) {
    const [factor] = (await page.call('GET', '/account/factors')).json<{ factors: Array<{ id: string }> }>().factors;
    expect((await page.call('POST', '/account/step-up', { factorId: factor!.id, code: totpCodeAt(page.secret, tick()) })).statusCode).toBe(200);
  }

  /** The newest mail to `to` whose text matches `pattern`, waiting briefly: notices go in the background. */
  async function mailMatching(to: string, pattern: RegExp): Promise<RegExpExecArray> {
    for (let tries = 0; tries < 100; tries += 1) {
      const found = mail.to(to).map((message) => pattern.exec(message.text)).findLast((match) => match !== null);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no mail to ${to} matched ${pattern}`);
  }

  /** The account's recovery codes as stored (hashes only), in a stable order. */
  async function recoveryCodeHashes(userId: string): Promise<string[]> {
    return (await server.db.query<{ code_hash: string }>('select code_hash from recovery_codes where user_id = $1 order by code_hash', [userId])).rows.map((row) => row.code_hash);
  }

  async function emailOf(userId: string): Promise<string | undefined> {
    return (await server.db.query<{ email: string }>('select email from users where id = $1', [userId])).rows[0]?.email;
  }

  /** Moves the page's account to `newEmail` (the page must have a fresh step-up). */
  async function moveEmail(page: AccountPage, newEmail: string) {
    expect((await page.call('POST', '/account/email', { email: newEmail })).statusCode).toBe(200);
    const confirmed = await page.call('POST', '/account/email/confirmation', { code: await mail.latestCode(newEmail) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
  }

  async function reportNotMe(token: string) {
    const browser = new TestBrowser(server.app);
    expect(answer<{ not_me: string }>(await browser.request('GET', `${API}/account/not-me?token=${token}`))).toEqual({ not_me: 'pending' });
    return browser.request('POST', `${API}/account/not-me`, { token });
  }

  async function resetCodeMailedTo(email: string): Promise<boolean> {
    const before = mail.to(email).length;
    await server.app.inject({ method: 'POST', url: `${API}/password/reset`, headers: { 'content-type': 'application/json' }, payload: { email } });
    return mail.to(email).slice(before).some((message) => /password reset code/i.test(message.subject));
  }

  /** The id of the session a page signed in with: the one its own list marks current. */
  async function sessionOf(page: AccountPage): Promise<string> {
    const sessions = (await page.call('GET', '/account/sessions')).json<{ sessions: Array<{ id: string; current: boolean }> }>().sessions;
    return sessions.find((session) => session.current)!.id;
  }

  // First: a session list counts only sessions live by the clock, which later cases move on by weeks.
  it('23.15 refuses every call that could take the account over from a session without a fresh factor, and changes nothing', async () => {
    const { user, page, userId } = await newAccount();
    const other = await signInToAccountPage(server, user, tick, '203.0.113.5', 'A second browser');
    const otherSession = await sessionOf(other);
    const [factor] = (await page.call('GET', '/account/factors')).json<{ factors: Array<{ id: string }> }>().factors;
    // The first sign-in left the account its first recovery codes: a refused call must leave that very set.
    const codesBefore = await recoveryCodeHashes(userId);
    expect(codesBefore).toHaveLength(LIMITS.RECOVERY_CODE_COUNT);
    goStale();
    const calls: Array<[string, unknown?]> = [
      ['/account/email', { email: `stolen-${people}@example.com` }],
      ['/account/email/confirmation', { code: '123456' }],
      ['/account/password', await sealPasswordChange(page.browser, user.password, 'Stolen-Passw0rd!')],
      ['/account/factors', { kind: 'email' }],
      [`/account/factors/${factor!.id}/confirmation`, { code: '123456' }],
      [`/account/factors/${factor!.id}/removal`],
      ['/account/passkeys', { credential: { id: 'x', rawId: 'x', type: 'public-key', response: {} } }],
      ['/account/recovery-codes'],
      ['/account/sessions/others/sign-out'],
      [`/account/sessions/${otherSession}/sign-out`],
    ];
    for (const [path, body] of calls) {
      const refused = await page.call('POST', path, body);
      counters.stepUp.record(refused.statusCode === 403);
      expect([path, refused.json()]).toEqual([path, expect.objectContaining({ error_code: 'account.step_up_required' })]);
    }
    expect((await other.call('GET', '/account/profile')).statusCode).toBe(200);
    expect(await emailOf(userId)).toBe(user.email);
    expect((await page.call('GET', '/account/factors')).json<{ factors: unknown[] }>().factors).toHaveLength(1);
    expect(await recoveryCodeHashes(userId)).toEqual(codesBefore);
  });

  it('23.1 asks a fresh factor for the email change and for its confirmation', async () => {
    const { page } = await newAccount();
    const thief = `thief-a-${name}@example.com`;
    goStale();
    const unproven = await page.call('POST', '/account/email', { email: thief });
    counters.freshFactor.record(unproven.statusCode === 403 && mail.to(thief).length === 0);
    expect(unproven.json()).toMatchObject({ error_code: 'account.step_up_required' });
    expect(mail.to(thief)).toHaveLength(0);

    await stepUp(page);
    expect((await page.call('POST', '/account/email', { email: thief })).statusCode).toBe(200);
    const code = await mail.latestCode(thief);
    goStale();
    const late = await page.call('POST', '/account/email/confirmation', { code });
    counters.freshFactor.record(late.statusCode === 403);
    expect(late.json()).toMatchObject({ error_code: 'account.step_up_required' });
    await stepUp(page);
    expect((await page.call('POST', '/account/email/confirmation', { code })).json()).toEqual({ email: thief });
  });

  it('23.1 lets the old address undo the change for 14 days: address back, signed out everywhere, the reset mailed to the old address', async () => {
    const { user, page, userId } = await newAccount();
    const thief = `thief-b-${name}@example.com`;
    await moveEmail(page, thief);
    const notice = await mailMatching(user.email, UNDO_LINK);
    expect(notice.input).toContain(`valid ${LIMITS.EMAIL_CHANGE_REVERT_TTL / DAY} days`);
    expect(notice.input).toMatch(/New address: t\S*•/);
    clock.advance(LIMITS.EMAIL_CHANGE_REVERT_TTL - DAY);

    const undone = await reportNotMe(notice[1]!);
    const restored = (await emailOf(userId)) === user.email;
    const signedOut = (await page.call('GET', '/account/profile')).statusCode === 401;
    const toOwner = await resetCodeMailedTo(user.email);
    const toThief = await resetCodeMailedTo(thief);
    counters.freshFactor.record(undone.statusCode === 200 && restored && signedOut && toOwner && !toThief);
    expect(undone.json()).toEqual({ not_me: 'reported' });
    expect({ restored, signedOut, toOwner, toThief }).toEqual({ restored: true, signedOut: true, toOwner: true, toThief: false });
    const login = await logIn(new TestBrowser(server.app), { ...server.publicClient, ...user });
    expect(login.answer.challenge).toBe('RESET_PASSWORD');
  });

  it('23.1 lets the undo link lapse after 14 days', async () => {
    const { user, page } = await newAccount();
    await moveEmail(page, `thief-c-${name}@example.com`);
    const notice = await mailMatching(user.email, UNDO_LINK);
    clock.advance(LIMITS.EMAIL_CHANGE_REVERT_TTL + 1);
    const lapsed = await new TestBrowser(server.app).request('GET', `${API}/account/not-me?token=${notice[1]}`);
    counters.freshFactor.record(lapsed.statusCode === 410);
    expect(lapsed.json()).toMatchObject({ error_code: 'notice_link.expired' });
  });

  it('23.1 shows a pending change on the account page and cancels it: its code then does nothing', async () => {
    const { user, page, userId } = await newAccount();
    const next = `pending-${people}-${name}@example.com`;
    await page.call('POST', '/account/email', { email: next });
    const shown = (await page.call('GET', '/account/profile')).json<{ pendingEmail: { email: string; expiresAt: string } | null }>();
    expect(shown.pendingEmail).toMatchObject({ email: next });
    expect((await page.call('POST', '/account/email/cancellation')).statusCode).toBe(200);
    const after = (await page.call('GET', '/account/profile')).json<{ pendingEmail: unknown }>();
    const confirmed = await page.call('POST', '/account/email/confirmation', { code: await mail.latestCode(next) });
    counters.freshFactor.record(after.pendingEmail === null && confirmed.statusCode === 400 && (await emailOf(userId)) === user.email);
    expect(after.pendingEmail).toBeNull();
    expect(confirmed.json()).toMatchObject({ error_code: 'code.invalid' });
  });

  it('23.1 "This wasn\'t me" on an earlier notice puts back the address it went to, and kills the links mailed to the thief', async () => {
    const { user, page, userId } = await newAccount();
    await signInToAccountPage(server, user, tick, '192.0.2.7', 'Another browser');
    const earlier = await mailMatching(user.email, NOT_ME_LINK);
    const thief = `thief-d-${name}@example.com`;
    await moveEmail(page, thief);
    await signInToAccountPage(server, { ...user, email: thief }, tick, '198.51.100.9', 'The thief\'s browser');
    const thiefsLink = await mailMatching(thief, NOT_ME_LINK);

    const reported = await reportNotMe(earlier[1]!);
    const restored = (await emailOf(userId)) === user.email;
    const thiefsUse = await new TestBrowser(server.app).request('GET', `${API}/account/not-me?token=${thiefsLink[1]}`);
    counters.freshFactor.record(reported.statusCode === 200 && restored && thiefsUse.statusCode === 410);
    expect(restored).toBe(true);
    expect(thiefsUse.statusCode).toBe(410);
    expect(await resetCodeMailedTo(user.email)).toBe(true);
  });

  it('23.2 answers a taken address exactly as a free one, and mails its owner instead of a code', async () => {
    const { page } = await newAccount();
    const taken = (await newAccount()).user.email;
    const free = `free-${people}-${name}@example.com`;
    const before = mail.to(taken).length;
    const answers = [await page.call('POST', '/account/email', { email: free }), await page.call('POST', '/account/email', { email: taken })];
    const shape = answers.map((response) => [response.statusCode, Object.keys(response.json()).sort().join(',')]);
    const warning = mail.to(taken).slice(before);
    counters.oracle.record(shape[0]!.join() === shape[1]!.join() && warning.length === 1 && !/\b\d{6}\b/.test(warning[0]?.text ?? ''));
    expect(shape[1]).toEqual(shape[0]);
    expect(answers[1]!.json()).toMatchObject({ pendingEmail: taken });
    expect(warning).toEqual([expect.objectContaining({ subject: 'Someone tried to use your email address for another account' })]);
    expect(warning[0]!.text).not.toMatch(/\b\d{6}\b/);
    expect((await page.call('POST', '/account/email/confirmation', { code: '123456' })).statusCode).toBe(400);
  });

  it('23.6 sends at most the hourly cap of email-change mails, one after another or all at once', async () => {
    const { page } = await newAccount();
    const sentBy = () => mail.sent.filter((message) => message.to.startsWith(`capped-${people}-`)).length;
    for (let round = 0; round < LIMITS.EMAIL_CHANGE_MAILS_PER_HOUR; round += 1) {
      expect((await page.call('POST', '/account/email', { email: `capped-${people}-${round}@example.com` })).statusCode).toBe(200);
    }
    const over = await page.call('POST', '/account/email', { email: `capped-${people}-over@example.com` });
    counters.cap.record(over.statusCode === 429 && sentBy() === LIMITS.EMAIL_CHANGE_MAILS_PER_HOUR);
    expect(over.json()).toMatchObject({ error_code: 'account.email_change_limit' });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(sentBy()).toBe(LIMITS.EMAIL_CHANGE_MAILS_PER_HOUR);

    const burst = await newAccount();
    const burstMails = () => mail.sent.filter((message) => message.to.startsWith(`burst-${people}-`)).length;
    const statuses = await Promise.all(Array.from({ length: 20 }, (_, index) => burst.page.call('POST', '/account/email', { email: `burst-${people}-${index}@example.com` })));
    counters.cap.record(burstMails() <= LIMITS.EMAIL_CHANGE_MAILS_PER_HOUR && statuses.every((response) => [200, 429].includes(response.statusCode)));
    expect(burstMails()).toBeLessThanOrEqual(LIMITS.EMAIL_CHANGE_MAILS_PER_HOUR);
    const codes = statuses.map((response) => response.statusCode);
    expect(codes.filter((code) => code === 200)).toHaveLength(LIMITS.EMAIL_CHANGE_MAILS_PER_HOUR);
    expect(codes.filter((code) => code === 429)).toHaveLength(20 - LIMITS.EMAIL_CHANGE_MAILS_PER_HOUR);
  });

  /** Signs in on a new browser ticking "Don't ask for a code on this device"; answers its trust token. */
  async function trustABrowser(user: { email: string; password: string; secret: string }): Promise<string> {
    const browser = new TestBrowser(server.app);
    expect((await logIn(browser, { ...server.publicClient, ...user })).answer.challenge).toBe('SOFTWARE_TOKEN_MFA');
    answer<StepAnswer>(await browser.request('POST', `${API}/auth/mfa/verification`, { code: totpCodeAt(user.secret, tick()), trustDevice: true }));
    return browser.jar.value(TRUST_COOKIE)!;
  }

  async function trustedSignInAsksCode(user: { email: string; password: string }, token: string): Promise<boolean> {
    const browser = new TestBrowser(server.app);
    browser.jar.set(TRUST_COOKIE, token);
    return (await logIn(browser, { ...server.publicClient, ...user })).answer.challenge === 'SOFTWARE_TOKEN_MFA';
  }

  it('23.7 revokes trusted browsers when the password changes on the account page, and says so', async () => {
    const { user, page } = await newAccount();
    const token = await trustABrowser(user);
    expect(await trustedSignInAsksCode(user, token)).toBe(false);
    const newPassword = 'Changed-Passw0rd!';
    await stepUp(page);
    const changed = await page.call('POST', '/account/password', await sealPasswordChange(page.browser, user.password, newPassword));
    const asks = await trustedSignInAsksCode({ ...user, password: newPassword }, token);
    counters.trusted.record(changed.statusCode === 200 && asks);
    expect(changed.json()).toMatchObject({ trustedDevicesRevoked: 1 });
    expect(asks).toBe(true);
  });

  it('23.7 revokes trusted browsers when every other session is signed out, and says so', async () => {
    const { user, page } = await newAccount();
    const token = await trustABrowser(user);
    await stepUp(page);
    const ended = await page.call('POST', '/account/sessions/others/sign-out');
    const asks = await trustedSignInAsksCode(user, token);
    counters.trusted.record(ended.statusCode === 200 && asks);
    expect(ended.json()).toMatchObject({ trustedDevicesRevoked: 1 });
    expect(asks).toBe(true);
  });

});
