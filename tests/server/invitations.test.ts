import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCompany, invite } from '../../server/admin/company-operations.ts';
import { LIMITS } from '../../server/limits.ts';
import { followToClient, whatTheAppSees } from './support/client-return.ts';
import { fakeClock } from './support/fakes.ts';
import { choosePassword as submitPassword, openInvitation as openLink } from './support/invitations.ts';
import { openLoginScreen, submitLogin, TestBrowser } from './support/sign-in.ts';
import { startSmtpCapture, type SmtpCapture } from './support/smtp-capture.ts';
import { startTestApp, TEST_DEMO_URL, TEST_PUBLIC_URL, type TestApp } from './support/test-app.ts';

const API = '/api/sso/v3';
const PASSWORD = 'Invited-Passw0rd!';

describe('invitations', () => {
  let server: TestApp;
  let inbox: SmtpCapture;
  const clock = fakeClock(Date.now());
  beforeAll(async () => {
    inbox = await startSmtpCapture();
    // Not about the second factor: these users sign in on their password alone (MFA is tested in tests/server/mfa-*.test.ts).
    server = await startTestApp({ clock: clock.now, env: { SMTP_URL: inbox.url, MFA_REQUIRED: 'false' } });
    await addCompany({ db: server.db }, 'Acme');
  });
  afterAll(async () => {
    await server.close();
    await inbox.close();
  });

  /** Invites `email` to Acme and returns the token of the emailed link. */
  async function inviteAndReadLink(email: string): Promise<{ link: URL; token: string }> {
    await invite({ db: server.db, mailer: server.context.mailer, config: server.context.config, clock: clock.now }, { email, company: 'Acme' });
    return readLink(email);
  }

  async function readLink(email: string): Promise<{ link: URL; token: string }> {
    const mail = await inbox.latest(email);
    const href = /(https?:\/\/\S+invitation=[A-Za-z0-9_-]+)/.exec(mail.raw)?.[1];
    if (!href) throw new Error(`no invitation link in: ${mail.raw}`);
    const link = new URL(href);
    return { link, token: link.searchParams.get('invitation') ?? '' };
  }

  const openInvitation = (browser: TestBrowser, token: string) => openLink(browser, server.publicClient, token);
  const choosePassword = (browser: TestBrowser, password = PASSWORD, details?: Record<string, unknown>) => submitPassword(browser, password, details);

  it('emails a link built from PUBLIC_URL that starts at the client app, whatever Host the renewal request claims', async () => {
    const { link, token } = await inviteAndReadLink('first@example.com');
    expect(link.origin + link.pathname).toBe(`${TEST_PUBLIC_URL}/auth/login`);
    const browser = new TestBrowser(server.app);
    const start = await browser.request('GET', `${API}/authorize?invitation=${token}`);
    expect(start.json()).toEqual({ redirect_to: `${TEST_DEMO_URL}/demo/login?client=sso-account&invitation=${token}` });

    clock.advance(LIMITS.INVITATION_TTL + 1);
    const renewal = await server.app.inject({
      method: 'POST',
      url: `${API}/invitation/renewal`,
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'content-type': 'application/json' },
      payload: JSON.stringify({ invitation: token }),
    });
    expect(renewal.json()).toEqual({ invitation: 'renewal_requested' });
    await expect.poll(() => inbox.to('first@example.com').length).toBe(2);
    const renewed = await readLink('first@example.com');
    expect(renewed.link.origin).toBe(TEST_PUBLIC_URL);
    expect(renewed.token).not.toBe(token);
  });

  it('shows the step prefilled on every opening of the link, and only the chosen password accepts it', async () => {
    const { token } = await inviteAndReadLink('opener@example.com');
    for (let opening = 0; opening < 3; opening += 1) {
      const { answer } = await openInvitation(new TestBrowser(server.app), token);
      expect(answer).toMatchObject({ challenge: 'NEW_PASSWORD_REQUIRED', parameters: { invitation: true, email: 'opener@example.com', client_id: 'sso-account' } });
    }
    const browser = new TestBrowser(server.app);
    const { codeVerifier } = await openInvitation(browser, token);
    expect((await choosePassword(browser, 'weakpass')).json().error_code).toBe('request.invalid');
    const accepted = await choosePassword(browser);
    expect(accepted.statusCode).toBe(200);
    const callback = await followToClient(browser, accepted.json<{ redirect_to: string }>().redirect_to, server.publicClient.redirectUri);
    expect(callback.searchParams.get('state')).toBe('state-inv');
    const { idToken } = await whatTheAppSees(server.app, server.publicClient, callback, codeVerifier);
    expect(idToken).toMatchObject({ email: 'opener@example.com', company: { name: 'Acme' } });

    // The new password signs in; the link is dead.
    const again = new TestBrowser(server.app);
    await openLoginScreen(again, server.publicClient);
    expect((await submitLogin(again, 'opener@example.com', PASSWORD)).json()).toHaveProperty('redirect_to');
    expect((await openInvitation(new TestBrowser(server.app), token)).answer).toEqual({ invitation: 'used' });
  });

  it('kills an invitation once its account has a password by a reset: the open step and the link say it was used', async () => {
    const email = 'reset-first@example.com';
    const { token } = await inviteAndReadLink(email);
    const opened = new TestBrowser(server.app);
    await openInvitation(opened, token);
    // The invited person (or whoever reads the mailbox) sets a password through "Forgot your password?" instead.
    const reset = new TestBrowser(server.app);
    expect((await reset.request('POST', `${API}/password/reset`, { email })).statusCode).toBe(200);
    const code = /\b(\d{6})\b/.exec((await inbox.latest(email)).raw)?.[1] ?? '';
    const confirmed = await reset.request('POST', `${API}/password/reset/confirmation`, { email, code, password: await reset.encrypt('Reset-First-Passw0rd!') });
    expect(confirmed.statusCode, confirmed.body).toBe(200);

    const late = await choosePassword(opened);
    expect(late.statusCode).toBe(410);
    expect(late.json()).toEqual({ error_code: 'invitation.used', error_message: 'This invitation has already been accepted. Log in with your password.' });
    expect((await new TestBrowser(server.app).request('GET', `${API}/authorize?invitation=${token}`)).json()).toEqual({ invitation: 'used' });
    expect((await openInvitation(new TestBrowser(server.app), token)).answer).toEqual({ invitation: 'used' });
    const login = new TestBrowser(server.app);
    await openLoginScreen(login, server.publicClient);
    expect((await submitLogin(login, email, 'Reset-First-Passw0rd!')).json()).toHaveProperty('redirect_to');
    expect((await submitLogin(new TestBrowser(server.app), email, PASSWORD)).statusCode).not.toBe(200);
  });

  it('lets exactly one of 50 parallel acceptances of one invitation through', { timeout: 120_000 }, async () => {
    const { token } = await inviteAndReadLink('race@example.com');
    const browsers = Array.from({ length: 50 }, () => new TestBrowser(server.app));
    for (const browser of browsers) await openInvitation(browser, token);
    const answers = await Promise.all(browsers.map((browser) => choosePassword(browser)));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    const refused = answers.filter((answer) => answer.statusCode !== 200);
    expect(refused).toHaveLength(49);
    for (const answer of refused) expect(answer.json()).toMatchObject({ error_code: 'invitation.used' });
  });

  it('refuses an expired invitation, whether opened late or accepted late', async () => {
    const { token } = await inviteAndReadLink('late@example.com');
    clock.advance(LIMITS.INVITATION_TTL - 60);
    const early = new TestBrowser(server.app);
    expect((await openInvitation(early, token)).answer).toMatchObject({ challenge: 'NEW_PASSWORD_REQUIRED' });
    clock.advance(120);
    expect((await openInvitation(new TestBrowser(server.app), token)).answer).toEqual({ invitation: 'expired' });
    expect((await new TestBrowser(server.app).request('GET', `${API}/authorize?invitation=${token}`)).json()).toEqual({ invitation: 'expired' });
    const late = await choosePassword(early);
    expect(late.statusCode).toBe(410);
    expect(late.json()).toEqual({ error_code: 'invitation.expired', error_message: 'This invitation has expired or has already been used. Ask for a new one.' });
  });

  it('answers a request for a fresh invitation the same for any token, and mails only the invited address, once', async () => {
    const { token } = await inviteAndReadLink('renew@example.com');
    clock.advance(LIMITS.INVITATION_TTL + 1);
    const ask = (invitation: string) => new TestBrowser(server.app).request('POST', `${API}/invitation/renewal`, { invitation });
    const unknown = await ask('x'.repeat(43));
    const known = await ask(token);
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    await expect.poll(() => inbox.to('renew@example.com').length).toBe(2);
    await ask(token);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(inbox.to('renew@example.com')).toHaveLength(2);

    const fresh = await readLink('renew@example.com');
    const browser = new TestBrowser(server.app);
    expect((await openInvitation(browser, fresh.token)).answer).toMatchObject({ challenge: 'NEW_PASSWORD_REQUIRED' });
    expect((await choosePassword(browser)).statusCode).toBe(200);
    expect((await ask('not a token!')).json().error_code).toBe('request.invalid');
  });

  it('signs in the invited person even in a browser where someone else has a session', async () => {
    const { token } = await inviteAndReadLink('second@example.com');
    const browser = new TestBrowser(server.app);
    await openLoginScreen(browser, server.publicClient);
    const login = await submitLogin(browser, server.user.email, server.user.password);
    await followToClient(browser, login.json<{ redirect_to: string }>().redirect_to, server.publicClient.redirectUri);
    const { answer } = await openInvitation(browser, token);
    expect(answer).toMatchObject({ challenge: 'NEW_PASSWORD_REQUIRED', parameters: { email: 'second@example.com' } });
  });

  it('asks for the names and the terms: the app gets the names in the ID token and userinfo, and the acceptance is recorded', async () => {
    const { token } = await inviteAndReadLink('named@example.com');
    const browser = new TestBrowser(server.app);
    const { codeVerifier, answer } = await openInvitation(browser, token);
    // The invited account has no names yet, so the step offers none to prefill.
    expect(answer).toMatchObject({ parameters: { invitation: true, email: 'named@example.com' } });
    expect(answer).not.toHaveProperty('parameters.given_name');
    for (const missing of [{ lastName: 'Lovelace', acceptTerms: true }, { firstName: 'Ada', acceptTerms: true }, { firstName: 'Ada', lastName: 'Lovelace' }, { firstName: 'Ada', lastName: 'Lovelace', acceptTerms: false }]) {
      const refused = await choosePassword(browser, PASSWORD, missing);
      expect(refused.statusCode, JSON.stringify(missing)).toBe(400);
      expect(refused.json().error_code).toBe('request.invalid');
    }
    const accepted = await choosePassword(browser, PASSWORD, { firstName: ' Ada ', lastName: 'Lovelace', acceptTerms: true });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const callback = await followToClient(browser, accepted.json<{ redirect_to: string }>().redirect_to, server.publicClient.redirectUri);
    const seen = await whatTheAppSees(server.app, server.publicClient, callback, codeVerifier);
    expect(seen.idToken).toMatchObject({ given_name: 'Ada', family_name: 'Lovelace', name: 'Ada Lovelace' });
    expect(seen.userinfo).toMatchObject({ given_name: 'Ada', family_name: 'Lovelace', name: 'Ada Lovelace' });
    const recorded = await server.db.query<{ terms_accepted_at: Date | null }>('select terms_accepted_at from users where email = $1', ['named@example.com']);
    expect(recorded.rows[0]?.terms_accepted_at).toEqual(new Date(clock.now()));
  });

  it('accepts an invitation only on its own step: the temporary-password call refuses it', async () => {
    const { token } = await inviteAndReadLink('sideways@example.com');
    const browser = new TestBrowser(server.app);
    await openInvitation(browser, token);
    const sideways = await browser.request('POST', `${API}/auth/password`, { password: await browser.encrypt(PASSWORD) });
    expect(sideways.json().error_code).toBe('step.out_of_order');
    expect((await choosePassword(browser)).statusCode).toBe(200);
  });
});
