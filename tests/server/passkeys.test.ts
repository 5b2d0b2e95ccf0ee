/**
 * Passkeys at sign-in, against the real server with a software authenticator (node:crypto): set up as the second
 * factor, proven after the password, used instead of the password, the browsers trusted with one, and the attacks on
 * them: a replayed assertion, one made for another site, one answer sent fifty times at once, and a cloned key's old
 * counter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import { totpCodeAt } from '../../server/mfa/totp.ts';
import { listSecurityEvents } from '../../server/store/security-events.ts';
import { signInToAccountPage, type AccountPage } from './support/account.ts';
import { followToClient, whatTheAppSees } from './support/client-return.ts';
import { capturingMailer, fakeClock } from './support/fakes.ts';
import { API, answer, logIn, pastNewRecoveryCodes, type StepAnswer } from './support/mfa.ts';
import { openLoginScreen, TestBrowser } from './support/sign-in.ts';
import { SoftwareAuthenticator, type CeremonyInput } from './support/software-authenticator.ts';
import { startTestApp, TEST_PUBLIC_URL, type TestApp } from './support/test-app.ts';

const ORIGIN = new URL(TEST_PUBLIC_URL).origin;
const PAGE: CeremonyInput = { origin: ORIGIN };
const TRUST_COOKIE = 'sso_trust';

interface PasskeyParameters {
  passkey: { ceremony: 'create' | 'get'; options: { challenge: string; rp: { id?: string }; user: { id: string }; rpId?: string; allowCredentials?: { id: string }[] } };
}

describe('passkeys at sign-in', () => {
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

  /** A fresh account whose only second factor is a passkey, set up at its first sign-in. */
  async function personWithPasskey(authenticator = new SoftwareAuthenticator()) {
    counter += 1;
    const person = { email: `passkey${counter}@example.com`, password: 'Passkey-Passw0rd!' };
    await addUser({ db: server.db }, person);
    const browser = new TestBrowser(server.app);
    const { answer: first } = await logIn(browser, { ...server.publicClient, ...person });
    expect(first.challenge).toBe('MFA_SETUP');
    expect(first.parameters?.availableChoices).toContainEqual({ type: 'passkey' });
    const setup = answer<StepAnswer & { parameters: PasskeyParameters }>(await browser.request('POST', `${API}/auth/2fa/initialization`, { type: 'passkey' }));
    expect(setup.challenge).toBe('SETUP_PASSKEY_MFA');
    expect(setup.parameters.passkey.options).toMatchObject({ rp: { id: 'localhost' }, authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' } });
    const credential = authenticator.create(setup.parameters.passkey.options, PAGE);
    const { done } = await pastNewRecoveryCodes(browser, answer<StepAnswer>(await browser.request('POST', `${API}/auth/2fa/passkey`, { credential })));
    expect(done.redirect_to).toBeDefined();
    clock.advance(5);
    return { ...person, authenticator };
  }

  /** A new browser at the login screen that asked for "Sign in with a passkey": its browser and the options. */
  async function passwordlessOptions() {
    const browser = new TestBrowser(server.app);
    const { codeVerifier } = await openLoginScreen(browser, server.publicClient);
    const offered = answer<StepAnswer & { parameters: PasskeyParameters }>(await browser.request('GET', `${API}/auth/passkey/options`));
    expect(offered.challenge).toBe('PASSKEY_SIGN_IN');
    return { browser, codeVerifier, options: offered.parameters.passkey.options };
  }

  it('signs in with a passkey instead of the password: amr says the key (hwk), the verified user and both factors', async () => {
    const person = await personWithPasskey();
    const { browser, codeVerifier, options } = await passwordlessOptions();
    expect(options.allowCredentials ?? []).toEqual([]);
    const done = answer<StepAnswer>(await browser.request('POST', `${API}/auth/passkey/login`, { credential: person.authenticator.get(options, PAGE) }));
    const callback = await followToClient(browser, String(done.redirect_to), server.publicClient.redirectUri);
    const { idToken } = await whatTheAppSees(server.app, server.publicClient, callback, codeVerifier);
    expect(idToken.amr).toEqual(['hwk', 'user', 'mfa']);
    expect(idToken.email).toBe(person.email);
  });

  it('asks for the passkey after the password when it is the second factor, and records pwd with it', async () => {
    const person = await personWithPasskey();
    const browser = new TestBrowser(server.app);
    const { answer: login, codeVerifier } = await logIn(browser, { ...server.publicClient, ...person });
    expect(login.challenge).toBe('PASSKEY_MFA');
    const options = (login.parameters as unknown as PasskeyParameters).passkey.options;
    expect(options.allowCredentials).toHaveLength(1);
    const done = answer<StepAnswer>(await browser.request('POST', `${API}/auth/mfa/passkey`, { credential: person.authenticator.get(options, PAGE) }));
    const callback = await followToClient(browser, String(done.redirect_to), server.publicClient.redirectUri);
    const { idToken } = await whatTheAppSees(server.app, server.publicClient, callback, codeVerifier);
    expect(idToken.amr).toEqual(['pwd', 'mfa', 'hwk', 'user']);
  });

  it('trusts the browser when "Don\'t ask for a passkey on this device" goes with the passkey: its next sign-in skips the second factor', async () => {
    const person = await personWithPasskey();
    const browser = new TestBrowser(server.app);
    const { answer: login } = await logIn(browser, { ...server.publicClient, ...person });
    expect(login.challenge).toBe('PASSKEY_MFA');
    expect(login.parameters).not.toHaveProperty('shared_device');
    const options = (login.parameters as unknown as PasskeyParameters).passkey.options;
    const credential = person.authenticator.get(options, PAGE);
    const done = answer<StepAnswer>(await browser.request('POST', `${API}/auth/mfa/passkey`, { credential, trustDevice: true }));
    expect(done.redirect_to).toBeDefined();
    const token = browser.jar.value(TRUST_COOKIE);
    expect(token).toBeDefined();
    clock.advance(60);

    const again = new TestBrowser(server.app);
    again.jar.set(TRUST_COOKIE, token!);
    const { answer: next, codeVerifier } = await logIn(again, { ...server.publicClient, ...person });
    expect(next.challenge).toBeUndefined();
    const callback = await followToClient(again, String(next.redirect_to), server.publicClient.redirectUri);
    const { idToken } = await whatTheAppSees(server.app, server.publicClient, callback, codeVerifier);
    // No passkey was used this time: the token says the trusted browser stood in for it (issue 27.21).
    expect(idToken.amr).toEqual(['pwd', 'trusted_device']);
  });

  it('stops trusting a browser trusted with a passkey once the person removes that passkey on the account page: its next sign-in asks for a second factor again', async () => {
    counter += 1;
    const person = { email: `passkey${counter}@example.com`, password: 'Passkey-Passw0rd!' };
    await addUser({ db: server.db }, person);
    const tick = () => {
      clock.advance(60);
      return clock.now();
    };
    const account = await signInToAccountPage(server, person, tick);
    const stepUpWithApp = async (page: AccountPage) => {
      const { factors } = answer<{ factors: Array<{ id: string; kind: string }> }>(await page.call('GET', '/account/factors'));
      const app = factors.find((factor) => factor.kind === 'totp')!;
      answer(await page.call('POST', '/account/step-up', { factorId: app.id, code: totpCodeAt(page.secret, tick()) }));
    };
    await stepUpWithApp(account);
    const authenticator = new SoftwareAuthenticator();
    const started = answer<PasskeyParameters>(await account.call('POST', '/account/factors', { kind: 'passkey' }));
    const { factors } = answer<{ factors: Array<{ id: string; kind: string }> }>(
      await account.call('POST', '/account/passkeys', { credential: authenticator.create(started.passkey.options, PAGE), name: 'Phone' }),
    );
    const passkeyId = factors.find((factor) => factor.kind === 'passkey')!.id;

    // A new browser: the password, then the passkey picked from the person's two factors, with "Don't ask for a code
    // on this device"; a browser with the trust cookie then signs in on the password alone.
    const browser = new TestBrowser(server.app);
    const { answer: login } = await logIn(browser, { ...server.publicClient, ...person });
    expect(login.challenge).toBe('SELECT_MFA_TYPE');
    const asked = answer<StepAnswer & { parameters: PasskeyParameters }>(await browser.request('POST', `${API}/auth/mfa/selection`, { type: 'passkey' }));
    expect(asked.challenge).toBe('PASSKEY_MFA');
    const credential = authenticator.get(asked.parameters.passkey.options, PAGE);
    answer(await browser.request('POST', `${API}/auth/mfa/passkey`, { credential, trustDevice: true }));
    const token = browser.jar.value(TRUST_COOKIE);
    expect(token).toBeDefined();
    clock.advance(60);
    const trusted = new TestBrowser(server.app);
    trusted.jar.set(TRUST_COOKIE, token!);
    expect((await logIn(trusted, { ...server.publicClient, ...person })).answer.challenge).toBeUndefined();

    await stepUpWithApp(account);
    answer(await account.call('POST', `/account/factors/${passkeyId}/removal`));

    const afterRemoval = new TestBrowser(server.app);
    afterRemoval.jar.set(TRUST_COOKIE, token!);
    const { answer: next } = await logIn(afterRemoval, { ...server.publicClient, ...person });
    expect(next.challenge).toBe('SOFTWARE_TOKEN_MFA');
  });

  it('leaves the browser untrusted when the passkey comes without "Don\'t ask for a passkey on this device"', async () => {
    const person = await personWithPasskey();
    const browser = new TestBrowser(server.app);
    const { answer: login } = await logIn(browser, { ...server.publicClient, ...person });
    const options = (login.parameters as unknown as PasskeyParameters).passkey.options;
    answer(await browser.request('POST', `${API}/auth/mfa/passkey`, { credential: person.authenticator.get(options, PAGE) }));
    expect(browser.jar.value(TRUST_COOKIE)).toBeUndefined();
  });

  it('says shared_device at the passkey step when the client asks for a fresh sign-in (prompt=login)', async () => {
    const person = await personWithPasskey();
    const browser = new TestBrowser(server.app);
    const { answer: login } = await logIn(browser, { ...server.publicClient, ...person, extraParams: { prompt: 'login' } });
    expect(login.challenge).toBe('PASSKEY_MFA');
    expect(login.parameters).toMatchObject({ shared_device: true });
  });

  it('refuses a replayed assertion, on its own sign-in and on a new one', async () => {
    const person = await personWithPasskey();
    const first = await passwordlessOptions();
    const assertion = person.authenticator.get(first.options, PAGE);
    answer(await first.browser.request('POST', `${API}/auth/passkey/login`, { credential: assertion }));
    const again = await first.browser.request('POST', `${API}/auth/passkey/login`, { credential: assertion });
    expect(again.statusCode).toBeGreaterThanOrEqual(400);
    const second = await passwordlessOptions();
    const replay = await second.browser.request('POST', `${API}/auth/passkey/login`, { credential: assertion });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ error_code: 'passkey.invalid' });
  });

  it("checks the assertion's userHandle and its id against rawId (WebAuthn L2 §7.2)", async () => {
    const person = await personWithPasskey();
    const other = await personWithPasskey();
    const refused = async (change: (assertion: ReturnType<SoftwareAuthenticator['get']>) => unknown) => {
      const { browser, options } = await passwordlessOptions();
      const answer = await browser.request('POST', `${API}/auth/passkey/login`, { credential: change(person.authenticator.get(options, PAGE)) });
      return answer.statusCode === 400 && answer.json().error_code === 'passkey.invalid';
    };
    const otherHandle = Buffer.from((await server.db.query<{ id: string }>('select id from users where email = $1', [other.email])).rows[0]!.id).toString('base64url');
    expect(await refused((assertion) => ({ ...assertion, response: { ...assertion.response, userHandle: otherHandle } }))).toBe(true);
    expect(await refused((assertion) => ({ ...assertion, response: { ...assertion.response, userHandle: undefined } }))).toBe(true);
    expect(await refused((assertion) => ({ ...assertion, id: `${assertion.id.slice(0, -2)}AA` }))).toBe(true);
    expect(await refused((assertion) => assertion)).toBe(false);
  });

  it('refuses an assertion made for another site (another RP ID), with no sign-in', async () => {
    const person = await personWithPasskey();
    const { browser, options } = await passwordlessOptions();
    const elsewhere = person.authenticator.get(options, { origin: ORIGIN, rpId: 'payments-evil.example' });
    const refused = await browser.request('POST', `${API}/auth/passkey/login`, { credential: elsewhere });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error_code: 'passkey.invalid' });
    const fromOtherOrigin = person.authenticator.get(options, { origin: 'https://payments-evil.example' });
    expect((await browser.request('POST', `${API}/auth/passkey/login`, { credential: fromOtherOrigin })).statusCode).toBe(400);
  });

  it('lets exactly one of 50 parallel submissions of one assertion sign in', async () => {
    const person = await personWithPasskey();
    const { browser, options } = await passwordlessOptions();
    const assertion = person.authenticator.get(options, PAGE);
    const responses = await Promise.all(Array.from({ length: 50 }, () => browser.request('POST', `${API}/auth/passkey/login`, { credential: assertion })));
    const successes = responses.filter((response) => response.statusCode === 200);
    expect(successes).toHaveLength(1);
    expect(successes[0]!.json<StepAnswer>().redirect_to).toBeDefined();
    expect(responses.filter((response) => response.statusCode >= 500)).toEqual([]);
  });

  it('refuses a key whose counter went back (a clone) and records a clone warning in the audit trail', async () => {
    const person = await personWithPasskey();
    const first = await passwordlessOptions();
    answer(await first.browser.request('POST', `${API}/auth/passkey/login`, { credential: person.authenticator.get(first.options, PAGE) }));
    const second = await passwordlessOptions();
    const cloned = await second.browser.request('POST', `${API}/auth/passkey/login`, { credential: person.authenticator.get(second.options, { origin: ORIGIN, counter: 1 }) });
    expect(cloned.statusCode).toBe(400);
    const events = await listSecurityEvents(server.db, {});
    expect(events.some((event) => event.kind === 'passkey_clone_warning')).toBe(true);
  });

  it('accepts an authenticator that keeps no counter (always 0), again and again', async () => {
    const person = await personWithPasskey(new SoftwareAuthenticator(false));
    for (let round = 0; round < 2; round += 1) {
      const { browser, options } = await passwordlessOptions();
      answer(await browser.request('POST', `${API}/auth/passkey/login`, { credential: person.authenticator.get(options, PAGE) }));
    }
  });

  it('refuses a passkey answer without user verification, and a malformed one with a clear error', async () => {
    const person = await personWithPasskey();
    const { browser, options } = await passwordlessOptions();
    const unverified = await browser.request('POST', `${API}/auth/passkey/login`, { credential: person.authenticator.get(options, { origin: ORIGIN, userVerified: false }) });
    expect(unverified.json()).toMatchObject({ error_code: 'passkey.invalid' });
    const garbage = await browser.request('POST', `${API}/auth/passkey/login`, { credential: { id: 'x' } });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json()).toMatchObject({ error_code: 'passkey.invalid' });
  });
});
