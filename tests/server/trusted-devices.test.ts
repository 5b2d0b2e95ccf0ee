import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import { resetMfa, showUser, userSessions } from '../../server/admin/user-operations.ts';
import { totpCodeAt } from '../../server/mfa/totp.ts';
import { listTrustedDevices } from '../../server/store/trusted-devices.ts';
import { signInToAccountPage } from './support/account.ts';
import { followToClient, whatTheAppSees } from './support/client-return.ts';
import { capturingMailer, fakeClock } from './support/fakes.ts';
import { API, answer, logIn, setUpTotp, type StepAnswer } from './support/mfa.ts';
import { TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const TRUST_COOKIE = 'sso_trust';

describe('"Don\'t ask for a code on this device"', () => {
  const clock = fakeClock(Date.now());
  const mail = capturingMailer();
  let server: TestApp;
  let counter = 0;

  beforeAll(async () => {
    server = await startTestApp({ clock: clock.now, mailer: mail.mailer });
  });
  afterAll(async () => {
    await server.close();
  });

  /** A fresh account with an authenticator app set up (without trusting the browser it was set up in). */
  async function personWithApp() {
    counter += 1;
    const person = { email: `trusting${counter}@example.com`, password: 'Trust-Passw0rd!' };
    await addUser({ db: server.db }, person);
    const browser = new TestBrowser(server.app);
    const { answer: first } = await logIn(browser, { ...server.publicClient, ...person });
    expect(first.challenge).toBe('MFA_SETUP');
    const { secret } = await setUpTotp(browser, clock.now());
    clock.advance(60);
    return { ...person, secret };
  }

  /** A new browser (carrying `trustToken` when given) signed in with the password: its answer, waiting for the app's code or not. */
  async function signInWithPassword(person: { email: string; password: string }, trustToken?: string, extraParams?: Record<string, string>) {
    const browser = new TestBrowser(server.app);
    if (trustToken !== undefined) browser.jar.set(TRUST_COOKIE, trustToken);
    const { answer: login, codeVerifier } = await logIn(browser, { ...server.publicClient, ...person, extraParams });
    return { browser, login, codeVerifier };
  }

  /** Signs in with the app's code, ticking "Don't ask for a code on this device"; answers the browser's trust token. */
  async function trustABrowser(person: { email: string; password: string; secret: string }): Promise<string> {
    const { browser, login } = await signInWithPassword(person);
    expect(login.challenge).toBe('SOFTWARE_TOKEN_MFA');
    const done = answer<StepAnswer>(await browser.request('POST', `${API}/auth/mfa/verification`, { code: totpCodeAt(person.secret, clock.now()), trustDevice: true }));
    clock.advance(60);
    expect(done.redirect_to).toBeDefined();
    const token = browser.jar.value(TRUST_COOKIE);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    return token!;
  }

  it('is off by default: a code entered without ticking it leaves the browser untrusted', async () => {
    const person = await personWithApp();
    const { browser, login } = await signInWithPassword(person);
    expect(login.challenge).toBe('SOFTWARE_TOKEN_MFA');
    answer(await browser.request('POST', `${API}/auth/mfa/verification`, { code: totpCodeAt(person.secret, clock.now()) }));
    clock.advance(60);
    expect(browser.jar.value(TRUST_COOKIE)).toBeUndefined();
  });

  it('lets the trusted browser sign in again on the password alone, with amr saying so (pwd, trusted_device: no code) and the password level', async () => {
    const person = await personWithApp();
    const token = await trustABrowser(person);
    const { browser, login, codeVerifier } = await signInWithPassword(person, token);
    expect(login.challenge).toBeUndefined();
    const callback = await followToClient(browser, String(login.redirect_to), server.publicClient.redirectUri);
    const { idToken } = await whatTheAppSees(server.app, server.publicClient, callback, codeVerifier);
    expect(idToken.amr).toEqual(['pwd', 'trusted_device']);
    expect(idToken.acr).toBe('urn:payments-network:acr:password');
  });

  it('keeps the trusted browser with its address and browser, shown to the owner, never its token', async () => {
    const person = await personWithApp();
    const token = await trustABrowser(person);
    const user = await server.db.query<{ id: string }>('select id from users where email = $1', [person.email]);
    const devices = await listTrustedDevices(server.db, user.rows[0]!.id, new Date(clock.now()));
    expect(devices).toHaveLength(1);
    expect(devices[0]!.ip).toBe('127.0.0.1');
    const stored = await server.db.query<{ token_hash: string }>('select token_hash from trusted_devices where user_id = $1', [user.rows[0]!.id]);
    expect(stored.rows[0]!.token_hash).not.toBe(token);
  });

  it('still asks the password: a wrong one is refused on a trusted browser', async () => {
    const person = await personWithApp();
    const token = await trustABrowser(person);
    const browser = new TestBrowser(server.app);
    browser.jar.set(TRUST_COOKIE, token);
    await expect(logIn(browser, { ...server.publicClient, email: person.email, password: 'Wrong-Passw0rd!' })).rejects.toThrow(/expected 200, got 4\d\d/);
  });

  it('asks another person signing in on the same browser for their code', async () => {
    const owner = await personWithApp();
    const other = await personWithApp();
    const token = await trustABrowser(owner);
    const { login } = await signInWithPassword(other, token);
    expect(login.challenge).toBe('SOFTWARE_TOKEN_MFA');
  });

  it('asks for a code, with no error, when the cookie is forged or malformed', async () => {
    const person = await personWithApp();
    await trustABrowser(person);
    for (const forged of ['A'.repeat(43), 'not a token', '']) {
      const { login } = await signInWithPassword(person, forged);
      expect(login.challenge).toBe('SOFTWARE_TOKEN_MFA');
    }
  });

  it('asks for a code, with no error, once the trust has expired', async () => {
    const person = await personWithApp();
    const token = await trustABrowser(person);
    clock.advance(31 * 24 * 3600);
    const { login } = await signInWithPassword(person, token);
    expect(login.challenge).toBe('SOFTWARE_TOKEN_MFA');
  });

  it('asks for a code again after a password reset', async () => {
    const person = await personWithApp();
    const token = await trustABrowser(person);
    const browser = new TestBrowser(server.app);
    answer(await browser.request('POST', `${API}/password/reset`, { email: person.email }));
    const code = await mail.latestCode(person.email);
    const password = 'Reset-Passw0rd!';
    answer(await browser.request('POST', `${API}/password/reset/confirmation`, { email: person.email, code, password: await browser.encrypt(password) }));
    const { login } = await signInWithPassword({ email: person.email, password }, token);
    expect(login.challenge).toBe('SOFTWARE_TOKEN_MFA');
  });

  it("is revoked by an operator's reset-mfa: the next sign-in sets a factor up again", async () => {
    const person = await personWithApp();
    const token = await trustABrowser(person);
    await resetMfa(server.context, person.email);
    const { login } = await signInWithPassword(person, token);
    expect(login.challenge).toBe('MFA_SETUP');
    expect(await server.db.query('select 1 from trusted_devices t join users u on u.id = t.user_id where u.email = $1', [person.email])).toMatchObject({ rowCount: 0 });
  });

  it('is ignored when the client asks for a fresh sign-in (prompt=login or max_age): the code is asked, and no trust is made', async () => {
    const person = await personWithApp();
    const token = await trustABrowser(person);
    const freshSignIns: Record<string, string>[] = [{ prompt: 'login' }, { max_age: '0' }];
    for (const extraParams of freshSignIns) {
      const { browser, login } = await signInWithPassword(person, undefined, extraParams);
      expect(login.challenge).toBe('SOFTWARE_TOKEN_MFA');
      answer(await browser.request('POST', `${API}/auth/mfa/verification`, { code: totpCodeAt(person.secret, clock.now()), trustDevice: true }));
      clock.advance(60);
      expect(browser.jar.value(TRUST_COOKIE)).toBeUndefined();
      const trusted = await signInWithPassword(person, token, extraParams);
      expect(trusted.login.challenge).toBe('SOFTWARE_TOKEN_MFA');
    }
  });

  it('is not offered on a shared-device hint: prompt=login and max_age answer shared_device at the code step, an ordinary sign-in does not', async () => {
    const person = await personWithApp();
    const ordinary = await signInWithPassword(person);
    expect(ordinary.login.challenge).toBe('SOFTWARE_TOKEN_MFA');
    expect(ordinary.login.parameters?.shared_device).toBeUndefined();
    const freshSignIns: Record<string, string>[] = [{ prompt: 'login' }, { max_age: '0' }];
    for (const extraParams of freshSignIns) {
      const { login } = await signInWithPassword(person, undefined, extraParams);
      expect(login.challenge).toBe('SOFTWARE_TOKEN_MFA');
      expect(login.parameters?.shared_device).toBe(true);
    }
  });

  it('is listed on the account page with its browser and address, and revoked there one at a time or all at once', async () => {
    const person = await personWithApp();
    const first = await trustABrowser(person);
    const second = await trustABrowser(person);
    const page = await signInToAccountPage(server, person, () => {
      clock.advance(60);
      return clock.now();
    });
    const listed = answer<{ devices: Array<{ id: string; ip: string; createdAt: string; lastUsedAt: string | null }> }>(await page.call('GET', '/account/trusted-devices'));
    expect(listed.devices).toHaveLength(2);
    expect(listed.devices[0]).toMatchObject({ ip: '127.0.0.1' });
    const afterOne = answer<{ devices: unknown[] }>(await page.call('POST', `/account/trusted-devices/${listed.devices[0]!.id}/revocation`));
    expect(afterOne.devices).toHaveLength(1);
    const again = await page.call('POST', `/account/trusted-devices/${listed.devices[0]!.id}/revocation`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ error_code: 'account.trusted_device_not_found' });
    expect(answer<{ devices: unknown[] }>(await page.call('POST', '/account/trusted-devices/revocation')).devices).toEqual([]);
    for (const token of [first, second]) expect((await signInWithPassword(person, token)).login.challenge).toBe('SOFTWARE_TOKEN_MFA');
  });

  it('shows operators the trusted browsers (user show, user sessions), and --end-all revokes them', async () => {
    const person = await personWithApp();
    const token = await trustABrowser(person);
    const shown = await showUser(server.context, person.email);
    expect(shown.trustedDevices).toHaveLength(1);
    expect(shown.trustedDevices[0]).toMatchObject({ ip: '127.0.0.1' });
    expect((await userSessions(server.context, person.email, { list: true })).trustedDevices).toHaveLength(1);
    const ended = await userSessions(server.context, person.email, { endAll: true });
    expect(ended.trustRevoked).toBe(1);
    expect(ended.trustedDevices).toEqual([]);
    expect((await signInWithPassword(person, token)).login.challenge).toBe('SOFTWARE_TOKEN_MFA');
  });
});
