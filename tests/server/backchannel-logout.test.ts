import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addClient } from '../../server/admin/operations.ts';
import { endSessions } from '../../server/auth/sessions.ts';
import { listSecurityEvents } from '../../server/store/security-events.ts';
import { findCredentialsByEmail } from '../../server/store/users.ts';
import { capturingMailer, fakeClock } from './support/fakes.ts';
import { API, answer, logIn, type StepAnswer } from './support/mfa.ts';
import { startLogoutReceiver } from './support/relying-party.ts';
import { signInWithTotp, userWithTotp, type TotpUser } from './support/signed-in.ts';
import { exchangeCode, TestBrowser, type LoginLink } from './support/sign-in.ts';
import { startTestApp, TEST_PUBLIC_URL, type TestApp } from './support/test-app.ts';

const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

describe('back-channel logout to a client app that registered a backchannel_logout_uri', () => {
  const clock = fakeClock(Date.now());
  const mail = capturingMailer();
  let server: TestApp;
  let receiver: Awaited<ReturnType<typeof startLogoutReceiver>>;
  let app: LoginLink;
  let afterLogout: string;

  beforeAll(async () => {
    receiver = await startLogoutReceiver();
    server = await startTestApp({ clock: clock.now, mailer: mail.mailer });
    app = { clientId: 'rp-app', redirectUri: `${receiver.origin}/cb` };
    afterLogout = `${receiver.origin}/signed-out`;
    await addClient(server.context, {
      clientId: app.clientId,
      redirectUris: [app.redirectUri],
      isPublic: true,
      postLogoutRedirectUris: [afterLogout],
      backchannelLogoutUri: `${receiver.origin}/logout`,
    });
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  /** The app's ID token for a sign-in that ended at `callback`. */
  async function idTokenOf(callback: URL, codeVerifier: string): Promise<string> {
    const tokens = await exchangeCode(server.app, app, callback, codeVerifier);
    return tokens.json<{ id_token: string }>().id_token;
  }

  /** A logout token verified the way the app must: the provider's keys, issuer, audience, typ. */
  async function verified(token: string) {
    const jwks = createLocalJWKSet((await server.app.inject({ method: 'GET', url: '/oidc/jwks' })).json<JSONWebKeySet>());
    const { payload } = await jwtVerify(token, jwks, { issuer: TEST_PUBLIC_URL, audience: app.clientId, typ: 'logout+jwt', algorithms: ['RS256'] });
    return payload;
  }

  let counter = 0;
  async function signedInToApp(): Promise<{ user: TotpUser; userId: string; browser: TestBrowser; sid: string; idToken: string }> {
    counter += 1;
    clock.advance(60);
    const { user } = await userWithTotp(server, `bcl${counter}@example.com`, clock.now());
    clock.advance(60);
    const { browser, callback, codeVerifier } = await signInWithTotp(server, user, clock.now(), { link: app });
    const idToken = await idTokenOf(callback, codeVerifier);
    const sid = decodeJwt(idToken).sid;
    expect(typeof sid).toBe('string');
    const userId = (await findCredentialsByEmail(server.db, user.email))!.user.id;
    receiver.tokens.length = 0;
    return { user, userId, browser, sid: String(sid), idToken };
  }

  it('tells the app, with a logout token it can verify, when "sign out everywhere" ends the session', async () => {
    const { userId, sid } = await signedInToApp();
    const ended = await endSessions(server.context, { userId, which: { all: true }, reason: 'signed_out_everywhere' });
    expect(ended).toHaveLength(2);
    expect(receiver.tokens).toHaveLength(1);
    const payload = await verified(receiver.tokens[0]!);
    expect(payload).toMatchObject({ sub: userId, sid, events: { [BACKCHANNEL_LOGOUT_EVENT]: {} } });
    expect(payload).not.toHaveProperty('nonce');
  });

  it('tells the app when the password is reset by emailed code', async () => {
    const { user, sid } = await signedInToApp();
    const browser = new TestBrowser(server.app);
    answer(await browser.request('POST', `${API}/password/reset`, { email: user.email }));
    const code = await mail.latestCode(user.email);
    const reset = await browser.request('POST', `${API}/password/reset/confirmation`, { email: user.email, code, password: await browser.encrypt('Brand-New-Passw0rd!') });
    expect(reset.json()).toEqual({ challenge: 'SUCCESS_PASSWORD_RESET' });
    expect(receiver.tokens).toHaveLength(1);
    expect((await verified(receiver.tokens[0]!)).sid).toBe(sid);
  });

  it('signs out through the app (RP-initiated logout): our confirmation screen under our policy, then back to the app, which is told, and the next sign-in asks for the password', async () => {
    const { user, userId, browser, idToken } = await signedInToApp();
    clock.advance(60);
    const other = await signInWithTotp(server, user, clock.now(), { link: app });
    receiver.tokens.length = 0;
    const query = new URLSearchParams({ id_token_hint: idToken, post_logout_redirect_uri: afterLogout, client_id: app.clientId });
    const confirm = await browser.request('GET', `/oidc/session/end?${query}`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.headers['content-security-policy']).toContain("default-src 'none'");
    expect(confirm.body).toContain('<h1>Sign out?</h1><p>You are signing out of rp-app.');
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirm.body)![1]!;
    const done = await server.app.inject({
      method: 'POST',
      url: '/oidc/session/end/confirm',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: browser.jar.header('/oidc/session/end/confirm') },
      payload: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
    });
    browser.jar.store(done.headers['set-cookie']);
    expect(done.statusCode).toBe(303);
    expect(String(done.headers.location)).toBe(afterLogout);
    expect(receiver.tokens).toHaveLength(1);
    expect(await verified(receiver.tokens[0]!)).toMatchObject({ sub: decodeJwt(idToken).sub, sid: decodeJwt(idToken).sid });
    const signedOut = (await listSecurityEvents(server.db, { userId })).find((event) => event.kind === 'session_ended');
    expect(signedOut).toMatchObject({ kind: 'session_ended', detail: { reason: 'signed_out', client_id: app.clientId } });

    // The same browser must prove itself again; the other browser's session is untouched.
    const { answer: login } = await logIn(browser, { ...app, email: user.email, password: user.password });
    expect(login.challenge).toBe('SOFTWARE_TOKEN_MFA');
    expect((await exchangeCode(server.app, app, other.callback, other.codeVerifier)).statusCode).toBe(200);
  });

  it('tells the app when the owner confirms "This wasn\'t me", and the next sign-in must reset the password', async () => {
    const { user, sid } = await signedInToApp();
    const link = /This wasn't me: (\S+)/.exec(mail.to(user.email).filter((message) => message.text.includes('not-me')).at(-1)!.text)![1]!;
    const token = new URL(link).searchParams.get('token')!;
    const browser = new TestBrowser(server.app);
    expect(answer<StepAnswer & { not_me?: string }>(await browser.request('POST', `${API}/account/not-me`, { token }))).toEqual({ not_me: 'reported' });
    expect(receiver.tokens).toHaveLength(1);
    expect((await verified(receiver.tokens[0]!)).sid).toBe(sid);
    const again = await browser.request('POST', `${API}/account/not-me`, { token });
    expect(again.statusCode).toBe(410);
    expect(again.json().error_code).toBe('notice_link.expired');
    const { answer: login } = await logIn(new TestBrowser(server.app), { ...app, email: user.email, password: user.password });
    expect(login).toEqual({ challenge: 'RESET_PASSWORD', parameters: { email: user.email } });
  });
});
