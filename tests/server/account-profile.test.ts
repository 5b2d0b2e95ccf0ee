import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import { LIMITS } from '../../server/limits.ts';
import { totpCodeAt } from '../../server/mfa/totp.ts';
import { addMembership, insertCompany } from '../../server/store/companies.ts';
import { sealPasswordChange, signInToAccountPage, type AccountPage } from './support/account.ts';
import { capturingMailer, fakeClock } from './support/fakes.ts';
import { submitLogin, TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

describe('profile, password and company on the account page (MFA on, the default)', () => {
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

  async function newAccount() {
    users += 1;
    const user = { email: `profile-${users}@example.com`, password: 'Profile-Passw0rd!' };
    await addUser({ db: server.db }, { ...user, firstName: 'Ada', lastName: 'Lovelace' });
    return { user, page: await signInToAccountPage(server, user, tick) };
  }

  async function stepUp(page: AccountPage) {
    const [factor] = (await page.call('GET', '/account/factors')).json<{ factors: Array<{ id: string }> }>().factors;
    expect((await page.call('POST', '/account/step-up', { factorId: factor!.id, code: totpCodeAt(page.secret, tick()) })).statusCode).toBe(200);
  }

  it('shows and changes the names', async () => {
    const { user, page } = await newAccount();
    expect((await page.call('GET', '/account/profile')).json()).toEqual({ email: user.email, firstName: 'Ada', lastName: 'Lovelace', pendingEmail: null });
    const changed = await page.call('POST', '/account/profile', { firstName: ' Augusta ', lastName: 'King' });
    expect(changed.json()).toEqual({ email: user.email, firstName: 'Augusta', lastName: 'King', pendingEmail: null });
    const empty = await page.call('POST', '/account/profile', { firstName: ' ', lastName: 'King' });
    expect(empty.statusCode).toBe(400);
  });

  it('changes the password only after re-authentication and the current password, and ends every other session', async () => {
    const { user, page } = await newAccount();
    const other = await signInToAccountPage(server, { ...user, secret: page.secret }, tick);
    const next = 'Brand-New-Passw0rd!';
    const unproven = await page.call('POST', '/account/password', await sealPasswordChange(page.browser, user.password, next));
    expect(unproven.json()).toMatchObject({ error_code: 'account.step_up_required' });
    await stepUp(page);
    const wrong = await page.call('POST', '/account/password', await sealPasswordChange(page.browser, 'Not-The-Passw0rd!', next));
    expect(wrong.json()).toMatchObject({ error_code: 'account.password_wrong' });
    const weak = await page.call('POST', '/account/password', await sealPasswordChange(page.browser, user.password, 'short'));
    expect(weak.statusCode).toBe(400);
    const changed = await page.call('POST', '/account/password', await sealPasswordChange(page.browser, user.password, next));
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({ endedSessions: 1, trustedDevicesRevoked: 0 });
    expect((await other.call('GET', '/account/profile')).statusCode).toBe(401);
    expect((await page.call('GET', '/account/profile')).statusCode).toBe(200);
    const oldPassword = await submitLogin(new TestBrowser(server.app), user.email, user.password);
    expect(oldPassword.statusCode).not.toBe(200);
  });

  it('lists the companies and switches the one the next sign-in acts for', async () => {
    const { user, page } = await newAccount();
    const userId = (await server.db.query<{ id: string }>('select id from users where email = $1', [user.email])).rows[0]!.id;
    const acme = await insertCompany(server.db, `Acme ${users}`);
    const globex = await insertCompany(server.db, `Globex ${users}`);
    await addMembership(server.db, userId, acme.id);
    await addMembership(server.db, userId, globex.id);
    const listed = (await page.call('GET', '/account/companies')).json<{ companies: Array<{ id: string; next: boolean }> }>().companies;
    expect(listed).toHaveLength(2);
    const target = listed.find((company) => !company.next)!;
    const switched = (await page.call('POST', `/account/companies/${target.id}/choice`)).json<{ companies: Array<{ id: string; next: boolean }> }>().companies;
    expect(switched[0]).toEqual(expect.objectContaining({ id: target.id, next: true }));
    const stranger = await insertCompany(server.db, `Initech ${users}`);
    expect((await page.call('POST', `/account/companies/${stranger.id}/choice`)).statusCode).toBe(400);
  });

  it('changes the email only once the code sent to the new address is entered, and tells the old address', async () => {
    const { user, page } = await newAccount();
    const newEmail = `moved-${users}@example.com`;
    await stepUp(page);
    const requested = await page.call('POST', '/account/email', { email: newEmail });
    expect(requested.statusCode, requested.body).toBe(200);
    expect((await page.call('GET', '/account/profile')).json()).toMatchObject({ email: user.email });
    expect((await page.call('POST', '/account/email/confirmation', { code: '000000' })).statusCode).toBe(400);
    const code = await mail.latestCode(newEmail);
    const confirmed = await page.call('POST', '/account/email/confirmation', { code });
    expect(confirmed.json()).toEqual({ email: newEmail });
    expect((await page.call('GET', '/account/profile')).json()).toMatchObject({ email: newEmail });
    expect(mail.sent.some((message) => message.to === user.email && /email/i.test(message.subject))).toBe(true);
    expect((await page.call('POST', '/account/email', { email: 'not an address' })).statusCode).toBe(400);
  });
});
