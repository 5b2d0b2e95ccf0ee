/**
 * `email_verified` (issue 24, item 7) is true only once the person proved the address, by a code or a link sent to
 * it: an account an operator made with the CLI starts false, in the ID token, at /oidc/me and at the API's userinfo,
 * and turns true with a password reset's code, an invitation's link or an emailed sign-in code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCompany, invite } from '../../server/admin/company-operations.ts';
import { addUser } from '../../server/admin/operations.ts';
import { markEmailVerified } from '../../server/store/email-verification.ts';
import { confirmFactor, createPendingFactor } from '../../server/store/mfa-factors.ts';
import { capturingMailer } from './support/fakes.ts';
import { choosePassword, invitationToken, openInvitation } from './support/invitations.ts';
import { API, answer, logIn, type StepAnswer } from './support/mfa.ts';
import { exchangeCode, openLoginScreen, signIn, TestBrowser } from './support/sign-in.ts';
import { followToClient } from './support/client-return.ts';
import { NEW_USER_PASSWORD, submitRegistration, submitRegistrationCode } from './support/registration.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const PASSWORD = 'Verified-Campaign-Passw0rd!';
const SCOPE = 'openid email profile';

describe('email_verified says whether the person proved the address', () => {
  const mail = capturingMailer();
  let server: TestApp;
  let people = 0;
  beforeAll(async () => {
    server = await startTestApp({ env: { MFA_REQUIRED: 'false' }, mailer: mail.mailer });
    await addCompany({ db: server.db }, 'Verified Co');
  }, 120_000);
  afterAll(async () => {
    await server.close();
  });

  const newAddress = () => {
    people += 1;
    return `verified-${people}@example.com`;
  };

  /** What the app is told after the code exchange: the ID token's claim, /oidc/me's and the API userinfo's. */
  async function toldAfter(callback: URL, codeVerifier: string): Promise<unknown[]> {
    const tokens = await exchangeCode(server.app, server.publicClient, callback, codeVerifier);
    expect(tokens.statusCode, tokens.body).toBe(200);
    const { id_token: idToken, access_token: accessToken } = tokens.json<{ id_token: string; access_token: string }>();
    const claims = JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString('utf8')) as { email_verified?: unknown };
    const bearer = { authorization: `Bearer ${accessToken}` };
    const me = await server.app.inject({ method: 'GET', url: '/oidc/me', headers: bearer });
    const userinfo = await server.app.inject({ method: 'GET', url: `${API}/userinfo`, headers: bearer });
    return [claims.email_verified, me.json().email_verified, userinfo.json().email_verified];
  }

  async function toldAtSignIn(email: string): Promise<unknown[]> {
    const { callback, codeVerifier } = await signIn(new TestBrowser(server.app), { ...server.publicClient, scope: SCOPE, email, password: PASSWORD });
    return toldAfter(callback, codeVerifier);
  }

  it('is false for an account the CLI made, and true once a password reset\'s emailed code proved the address', async () => {
    const email = newAddress();
    await addUser({ db: server.db }, { email, password: PASSWORD });
    expect(await toldAtSignIn(email)).toEqual([false, false, false]);
    const browser = new TestBrowser(server.app);
    await browser.request('POST', `${API}/password/reset`, { email });
    const code = await mail.latestCode(email);
    const reset = await browser.request('POST', `${API}/password/reset/confirmation`, { email, code, password: await browser.encrypt(`${PASSWORD}2`) });
    expect(reset.statusCode, reset.body).toBe(200);
    const { callback, codeVerifier } = await signIn(new TestBrowser(server.app), { ...server.publicClient, scope: SCOPE, email, password: `${PASSWORD}2` });
    expect(await toldAfter(callback, codeVerifier)).toEqual([true, true, true]);
  });

  it('is true once an invitation\'s link, mailed to the address, was followed to set the password', async () => {
    const email = newAddress();
    await invite({ db: server.db, mailer: mail.mailer, config: server.context.config, clock: Date.now }, { email, company: 'Verified Co' });
    const browser = new TestBrowser(server.app);
    await openInvitation(browser, server.publicClient, invitationToken(mail.to(email).at(-1)?.text ?? ''));
    const accepted = await choosePassword(browser, PASSWORD);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await toldAtSignIn(email)).toEqual([true, true, true]);
  });

  it('is true from the sign-in whose emailed code proved the address', async () => {
    const email = newAddress();
    const user = await addUser({ db: server.db }, { email, password: PASSWORD });
    await confirmFactor(server.db, user.id, await createPendingFactor(server.db, { userId: user.id, kind: 'email' }), new Date());
    const browser = new TestBrowser(server.app);
    const { answer: login, codeVerifier } = await logIn(browser, { ...server.publicClient, scope: SCOPE, email, password: PASSWORD });
    expect(login.challenge).toBe('EMAIL_MFA');
    const done = answer<StepAnswer>(await browser.request('POST', `${API}/auth/mfa/verification`, { code: await mail.latestCode(email) }));
    const callback = await followToClient(browser, done.redirect_to!, server.publicClient.redirectUri);
    expect(await toldAfter(callback, codeVerifier)).toEqual([true, true, true]);
  });

  it('is true for an account a sign-up made, whose code proved the address', async () => {
    const email = newAddress();
    const browser = new TestBrowser(server.app);
    await openLoginScreen(browser, server.publicClient);
    expect((await submitRegistration(browser, { email })).statusCode).toBe(200);
    expect((await submitRegistrationCode(browser, await mail.latestCode(email))).statusCode).toBe(200);
    const { callback, codeVerifier } = await signIn(new TestBrowser(server.app), { ...server.publicClient, scope: SCOPE, email, password: NEW_USER_PASSWORD });
    expect(await toldAfter(callback, codeVerifier)).toEqual([true, true, true]);
  });

  it('counts a proof only for the address it was sent to', async () => {
    const email = newAddress();
    const user = await addUser({ db: server.db }, { email, password: PASSWORD });
    await markEmailVerified(server.db, user.id, new Date(), 'an-older-address@example.com');
    expect(await toldAtSignIn(email)).toEqual([false, false, false]);
  });
});
