import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperationError } from '../../server/admin/operation-error.ts';
import { generateRecoveryCodes, recoveryCodeDeps, recoveryCodeStatus } from '../../server/auth/recovery-codes.ts';
import { auditTrail, disableUser, enableUser, resetMfa, showUser, unlockUser, userSessions } from '../../server/admin/user-operations.ts';
import { listSessions } from '../../server/auth/sessions.ts';
import { LIMITS } from '../../server/limits.ts';
import { addCompany, addUserToCompany } from '../../server/admin/company-operations.ts';
import { findCredentialsByEmail } from '../../server/store/users.ts';
import { capturingMailer, fakeClock, settle } from './support/fakes.ts';
import { API, logIn } from './support/mfa.ts';
import { signInWithTotp, userWithTotp } from './support/signed-in.ts';
import { exchangeCode, submitLogin, TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const WRONG_PASSWORD_ANSWER = { error_code: 'auth.invalid_credentials', error_message: 'Incorrect email or password.' };

describe('an operator recovering a user (MFA on)', () => {
  const clock = fakeClock(Date.now());
  const mail = capturingMailer();
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp({ clock: clock.now, mailer: mail.mailer });
  });
  afterAll(async () => {
    await server.close();
  });

  const userIdOf = async (email: string) => (await findCredentialsByEmail(server.db, email))!.user.id;
  const kindsOf = async (email: string) => (await auditTrail(server.context, { email, limit: 50 })).map((event) => event.kind);

  it('user reset-mfa removes the factor and the recovery codes, ends the sessions, mails the user, and the next sign-in sets up a factor', async () => {
    const { user } = await userWithTotp(server, 'lost-phone@example.com', clock.now());
    expect(await listSessions(server.db, await userIdOf(user.email))).toHaveLength(1);
    await generateRecoveryCodes(recoveryCodeDeps(server.context), await userIdOf(user.email), new Date(clock.now()));

    const done = await resetMfa(server.context, user.email);
    expect(done).toEqual({ email: user.email, removed: ['totp'], sessionsEnded: 1 });
    expect(await listSessions(server.db, await userIdOf(user.email))).toEqual([]);
    expect((await recoveryCodeStatus(server.db, await userIdOf(user.email))).left).toBe(0);
    await settle();
    const notice = mail.to(user.email).at(-1)!;
    expect(notice.subject).toBe('Your sign-in methods were reset');
    expect(notice.text).toMatch(/This wasn't me: http:\/\/localhost:8080\/auth\/not-me\?token=[A-Za-z0-9_-]{43}/);
    expect((await kindsOf(user.email)).slice(0, 2)).toEqual(['mfa_reset', 'session_ended']);

    clock.advance(60);
    const { answer } = await logIn(new TestBrowser(server.app), { ...server.publicClient, email: user.email, password: user.password });
    expect(answer.challenge).toBe('MFA_SETUP');
  });

  it('user disable ends every session, revokes its tokens, and refuses sign-in with the wrong-password answer; enable lets the user back', async () => {
    clock.advance(60);
    const { user, callback, codeVerifier } = await userWithTotp(server, 'leaver@example.com', clock.now());
    const disabled = await disableUser(server.context, user.email);
    expect(disabled).toEqual({ email: user.email, changed: true, sessionsEnded: 1 });
    expect(await listSessions(server.db, await userIdOf(user.email))).toEqual([]);
    // The code issued to the app before is dead with the grant.
    expect((await exchangeCode(server.app, server.publicClient, callback, codeVerifier)).statusCode).toBe(400);

    const browser = new TestBrowser(server.app);
    await logIn(browser, { ...server.publicClient, email: user.email, password: 'not-the-password' }).catch(() => undefined);
    const wrong = await submitLogin(browser, user.email, 'still-not-the-password');
    const right = await submitLogin(browser, user.email, user.password);
    expect(right.statusCode).toBe(wrong.statusCode);
    expect(right.json()).toEqual(WRONG_PASSWORD_ANSWER);
    expect(wrong.json()).toEqual(WRONG_PASSWORD_ANSWER);
    expect(await disableUser(server.context, user.email)).toMatchObject({ changed: false });

    expect(await enableUser(server.context, user.email)).toEqual({ email: user.email, changed: true });
    clock.advance(60);
    await signInWithTotp(server, user, clock.now());
    expect(await kindsOf(user.email)).toEqual(expect.arrayContaining(['account_disabled', 'account_enabled']));
  });

  it('user unlock lifts the wait after repeated wrong passwords at once', async () => {
    clock.advance(60);
    const { user } = await userWithTotp(server, 'typo@example.com', clock.now());
    const browser = new TestBrowser(server.app, '198.51.100.77');
    await logIn(browser, { ...server.publicClient, email: user.email, password: 'wrong' }).catch(() => undefined);
    for (let failure = 1; failure < LIMITS.LOGIN_FAILURES_BEFORE_DELAY; failure += 1) await submitLogin(browser, user.email, 'wrong');
    expect((await submitLogin(browser, user.email, user.password)).json().error_code).toBe('auth.too_many_attempts');
    expect((await showUser(server.context, user.email)).lockout).toMatchObject({ loginFailures: LIMITS.LOGIN_FAILURES_BEFORE_DELAY, waitingUntil: expect.any(String) });

    await unlockUser(server.context, user.email);
    expect((await showUser(server.context, user.email)).lockout).toEqual({ loginFailures: 0, codeFailures: [], totpFailures: 0, codeCaps: [] });
    expect((await submitLogin(browser, user.email, user.password)).json()).toMatchObject({ challenge: 'SOFTWARE_TOKEN_MFA' });
    expect(await kindsOf(user.email)).toContain('account_unlocked');
  });

  it('user sessions lists the sessions, ends one by its id, then all', async () => {
    clock.advance(60);
    const { user } = await userWithTotp(server, 'two-laptops@example.com', clock.now());
    clock.advance(60);
    await signInWithTotp(server, user, clock.now());
    const listed = await userSessions(server.context, user.email, { list: true });
    expect(listed.sessions).toHaveLength(2);
    expect(listed.sessions[0]!.clientIds).toEqual([server.publicClient.clientId]);

    const one = await userSessions(server.context, user.email, { end: listed.sessions[1]!.id });
    expect(one.ended).toEqual([listed.sessions[1]!.id]);
    expect(one.sessions.map((session) => session.id)).toEqual([listed.sessions[0]!.id]);
    await expect(userSessions(server.context, user.email, { end: listed.sessions[1]!.id })).rejects.toThrow(OperationError);

    const all = await userSessions(server.context, user.email, { endAll: true });
    expect(all).toEqual({ email: user.email, ended: [listed.sessions[0]!.id], sessions: [], trustedDevices: [], trustRevoked: 0 });
  });

  it("user show tells factors, sessions, lockout, companies and the last events, and records the operator's look", async () => {
    clock.advance(60);
    const { user } = await userWithTotp(server, 'shown@example.com', clock.now(), '192.0.2.200');
    await addCompany(server.context, 'Shown Bank');
    await addUserToCompany(server.context, 'Shown Bank', user.email);
    const shown = await showUser(server.context, user.email);
    expect(shown.user).toMatchObject({ email: user.email, resetRequired: false });
    expect(shown.user.disabledAt).toBeUndefined();
    expect(shown.factors).toEqual([{ kind: 'totp' }]);
    expect(shown.sessions).toHaveLength(1);
    expect(shown.companies).toEqual(['Shown Bank']);
    expect(shown.events.map((event) => event.kind)).toEqual(['sign_in', 'factor_added']);
    expect(shown.events[0]).toMatchObject({ ip: '192.0.2.200', detail: { client_id: server.publicClient.clientId } });
    expect((await kindsOf(user.email))[0]).toBe('account_viewed');
    await expect(showUser(server.context, 'nobody@example.com')).rejects.toThrow('no user has the email nobody@example.com');
  });

  it('audit lists everyone’s events since a time, newest first, with whose they are', async () => {
    clock.advance(3600);
    const { user } = await userWithTotp(server, 'recent@example.com', clock.now());
    const recent = await auditTrail(server.context, { sinceSeconds: 60, limit: 50 });
    expect(recent.map((event) => [event.kind, event.email])).toEqual([
      ['sign_in', user.email],
      ['factor_added', user.email],
    ]);
    expect(await auditTrail(server.context, { sinceSeconds: 60, limit: 1 })).toHaveLength(1);
  });

  it('opens a notice\'s "This wasn\'t me" link without acting on it: the sessions stay until the owner confirms', async () => {
    clock.advance(60);
    const { user } = await userWithTotp(server, 'scanned@example.com', clock.now());
    await settle();
    const link = /This wasn't me: (\S+)/.exec(mail.to(user.email).at(-1)!.text)![1]!;
    const token = new URL(link).searchParams.get('token')!;
    const browser = new TestBrowser(server.app);
    const shown = await browser.request('GET', `${API}/account/not-me?token=${token}`);
    expect(shown.json()).toEqual({ not_me: 'pending' });
    expect(await listSessions(server.db, await userIdOf(user.email))).toHaveLength(1);
  });
});
