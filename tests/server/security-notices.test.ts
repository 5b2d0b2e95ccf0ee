import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import { capturingMailer, fakeClock, settle } from './support/fakes.ts';
import { API, answer, logIn, setUpTotp, type StepAnswer } from './support/mfa.ts';
import { signInWithTotp, userWithTotp } from './support/signed-in.ts';
import { TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const CHROME_155_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/155.0.0.0 Safari/537.36';
const NOT_ME_LINK = /This wasn't me: http:\/\/localhost:8080\/auth\/not-me\?token=[A-Za-z0-9_-]{43}\n/;

describe('security notices by email (MFA on)', () => {
  const clock = fakeClock(Date.now());
  const mail = capturingMailer();
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp({ clock: clock.now, mailer: mail.mailer });
  });
  afterAll(async () => {
    await server.close();
  });

  const subjects = (email: string) => mail.to(email).map((message) => message.subject);

  it('tells the owner of a factor added, with where it came from and a "This wasn\'t me" link', async () => {
    const { user } = await userWithTotp(server, 'added@example.com', clock.now(), '203.0.113.44');
    await settle();
    const notice = mail.to(user.email).at(-1)!;
    expect(notice.subject).toBe('A sign-in method was added to your account');
    // The test client's user agent ("lightMyRequest") names no browser a person knows: only the address is told.
    expect(notice.text).toContain('From: address 203.0.113.44');
    expect(notice.text).not.toContain('lightMyRequest');
    expect(notice.text).toMatch(NOT_ME_LINK);
  });

  it('tells the owner of a sign-in from a browser not seen before on the account, and not of one seen before', async () => {
    const { user, browser } = await userWithTotp(server, 'travels@example.com', clock.now());
    await settle();
    const before = subjects(user.email).length;
    clock.advance(60);
    const chrome = new TestBrowser(server.app, '198.51.100.9');
    chrome.userAgent = CHROME_155_ON_LINUX;
    await signInWithTotp(server, user, clock.now(), { browser: chrome });
    await settle();
    expect(subjects(user.email).slice(before)).toEqual(['New sign-in to your account']);
    // The browser as a person names it, never the raw user-agent string.
    expect(mail.to(user.email).at(-1)!.text).toContain('From: Chrome 155 on Linux, address 198.51.100.9');
    expect(mail.to(user.email).at(-1)!.text).not.toContain('Mozilla');

    // The first browser again (its provider session ended, so it signs in anew): known, so no notice.
    await server.db.query("delete from oidc_payloads where model = 'Session'");
    clock.advance(60);
    await signInWithTotp(server, user, clock.now(), { browser });
    await settle();
    expect(subjects(user.email).slice(before)).toEqual(['New sign-in to your account']);
  });

  it('tells the owner when a temporary password is replaced', async () => {
    const user = { email: 'temporary@example.com', password: 'Temporary-Passw0rd!' };
    await addUser({ db: server.db }, { ...user, temporary: true });
    const browser = new TestBrowser(server.app);
    const { answer: login } = await logIn(browser, { ...server.publicClient, ...user });
    expect(login.challenge).toBe('NEW_PASSWORD_REQUIRED');
    const changed = answer<StepAnswer>(await browser.request('POST', `${API}/auth/password`, { password: await browser.encrypt('Chosen-Passw0rd!42') }));
    expect(changed.challenge).toBe('MFA_SETUP');
    await setUpTotp(browser, clock.now());
    await settle();
    expect(subjects(user.email)).toEqual(['Your password was changed', 'A sign-in method was added to your account']);
    expect(mail.to(user.email)[0]!.text).toMatch(NOT_ME_LINK);
  });
});
