/**
 * The phishing-resistant level (issue 24, item 5): a client asking for it (`acr_values` or an essential `acr` claim)
 * gets the person of a live, weaker session stepped up with a passkey, and an ID token that says so; a person with no
 * passkey, or who proves another factor instead, is refused with unmet_authentication_requirements at the client's
 * redirect URI, never signed in at a lower level.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import { ACR } from '../../server/oidc/acr.ts';
import { totpCodeAt } from '../../server/mfa/totp.ts';
import { signInToAccountPage, type AccountPage } from './support/account.ts';
import { followToClient, whatTheAppSees } from './support/client-return.ts';
import { fakeClock } from './support/fakes.ts';
import { API, answer, type StepAnswer } from './support/mfa.ts';
import { openLoginScreen, submitLogin } from './support/sign-in.ts';
import { SoftwareAuthenticator } from './support/software-authenticator.ts';
import { startTestApp, TEST_PUBLIC_URL, type TestApp } from './support/test-app.ts';

const PAGE = { origin: new URL(TEST_PUBLIC_URL).origin };
const PASSWORD = 'Phishing-Resistant-Passw0rd!';

interface PasskeyOptions {
  passkey: { options: { challenge: string; rp: { id?: string }; user: { id: string }; rpId?: string; allowCredentials?: { id: string }[] } };
}
interface Factors {
  factors: Array<{ id: string; kind: string }>;
}

describe('the phishing-resistant acr level', () => {
  const clock = fakeClock(Date.now());
  let server: TestApp;
  let people = 0;
  const tick = () => {
    clock.advance(60);
    return clock.now();
  };

  beforeAll(async () => {
    server = await startTestApp({ clock: clock.now });
  }, 120_000);
  afterAll(async () => {
    await server.close();
  });

  /** A person signed in with password and authenticator app (a live session at the second-factor level). */
  async function signedInWithApp() {
    people += 1;
    const person = { email: `phishing-resistant-${people}@example.com`, password: PASSWORD };
    await addUser({ db: server.db }, person);
    return { person, page: await signInToAccountPage(server, person, tick) };
  }

  /** Adds a passkey on the account page, after a step-up with the app. */
  async function addPasskey(page: AccountPage): Promise<SoftwareAuthenticator> {
    const app = answer<Factors>(await page.call('GET', '/account/factors')).factors.find((factor) => factor.kind === 'totp')!;
    answer(await page.call('POST', '/account/step-up', { factorId: app.id, code: totpCodeAt(page.secret, tick()) }));
    const started = answer<PasskeyOptions>(await page.call('POST', '/account/factors', { kind: 'passkey' }));
    const authenticator = new SoftwareAuthenticator();
    answer(await page.call('POST', '/account/passkeys', { credential: authenticator.create(started.passkey.options, PAGE), name: 'Laptop' }));
    return authenticator;
  }

  /** The same browser, its session live, asked by the app for the phishing-resistant level; the answer to the password. */
  async function askForPhishingResistant(page: AccountPage, email: string, extraParams: Record<string, string>) {
    const { codeVerifier } = await openLoginScreen(page.browser, { ...server.publicClient, state: 'pay-42', extraParams });
    const login = answer<StepAnswer>(await submitLogin(page.browser, email, PASSWORD));
    return { login, codeVerifier };
  }

  it.each([
    ['acr_values', { acr_values: ACR.phishingResistant }],
    ['an essential acr claim', { claims: JSON.stringify({ id_token: { acr: { essential: true, value: ACR.phishingResistant } } }) }],
  ])('steps a live session up with a passkey when the app asks by %s, and the ID token says the level reached', async (_how, extraParams) => {
    const { person, page } = await signedInWithApp();
    const authenticator = await addPasskey(page);
    const { login, codeVerifier } = await askForPhishingResistant(page, person.email, extraParams);
    // The passkey, not the authenticator app the session was made with.
    expect(login.challenge).toBe('PASSKEY_MFA');
    const options = (login.parameters as unknown as PasskeyOptions).passkey.options;
    const done = answer<StepAnswer>(await page.browser.request('POST', `${API}/auth/mfa/passkey`, { credential: authenticator.get(options, PAGE) }));
    const callback = await followToClient(page.browser, String(done.redirect_to), server.publicClient.redirectUri);
    const { idToken } = await whatTheAppSees(server.app, server.publicClient, callback, codeVerifier);
    expect(idToken.acr).toBe(ACR.phishingResistant);
    expect(idToken.amr).toEqual(expect.arrayContaining(['pwd', 'hwk']));
  });

  it('refuses a person with no passkey with unmet_authentication_requirements at the app, with its state', async () => {
    const { person, page } = await signedInWithApp();
    const { login } = await askForPhishingResistant(page, person.email, { acr_values: ACR.phishingResistant });
    expect(login.challenge).toBeUndefined();
    const back = await followToClient(page.browser, String(login.redirect_to), server.publicClient.redirectUri);
    expect(back.searchParams.get('error')).toBe('unmet_authentication_requirements');
    expect(back.searchParams.get('state')).toBe('pay-42');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('refuses a person who proves another factor instead of the passkey ("Use another method")', async () => {
    const { person, page } = await signedInWithApp();
    await addPasskey(page);
    const { login } = await askForPhishingResistant(page, person.email, { acr_values: ACR.phishingResistant });
    expect(login.challenge).toBe('PASSKEY_MFA');
    const choice = answer<StepAnswer>(await page.browser.request('GET', `${API}/auth/mfa/selection`));
    const app = (choice.parameters?.availableChoices as Array<{ type: string }>).find((item) => item.type === 'totp');
    expect(app).toBeDefined();
    const chosen = answer<StepAnswer>(await page.browser.request('POST', `${API}/auth/mfa/selection`, { type: 'totp' }));
    expect(chosen.challenge).toBe('SOFTWARE_TOKEN_MFA');
    const done = answer<StepAnswer>(await page.browser.request('POST', `${API}/auth/mfa/verification`, { code: totpCodeAt(page.secret, tick()) }));
    const back = await followToClient(page.browser, String(done.redirect_to), server.publicClient.redirectUri);
    expect(back.searchParams.get('error')).toBe('unmet_authentication_requirements');
    expect(back.searchParams.get('code')).toBeNull();
  });
});
