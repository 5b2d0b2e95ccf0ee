import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { showUser, unlockUser } from '../../server/admin/user-operations.ts';
import { LIMITS } from '../../server/limits.ts';
import { capturingMailer, fakeClock } from './support/fakes.ts';
import { API, logIn } from './support/mfa.ts';
import { TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

describe('the hourly cap of codes sent does not lie', () => {
  const clock = fakeClock(Date.UTC(2026, 10, 22, 9, 0, 0));
  const mail = capturingMailer();
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp({ clock: clock.now, mailer: mail.mailer });
  });
  afterAll(async () => {
    await server.close();
  });

  it('after 6 codes in an hour says so, with when to try again and Retry-After; user show lists the cap and user unlock clears it', async () => {
    const { email, password } = server.user;
    const setup = new TestBrowser(server.app);
    await logIn(setup, { ...server.publicClient, email, password });
    await setup.request('POST', `${API}/auth/2fa/initialization`, { type: 'email' });
    expect((await setup.request('POST', `${API}/auth/2fa/verification`, { code: await mail.latestCode(email) })).statusCode).toBe(200);
    const firstSent = clock.now();

    clock.advance(LIMITS.MFA_RESEND_COOLDOWN);
    const browser = new TestBrowser(server.app);
    await logIn(browser, { ...server.publicClient, email, password });
    for (let sent = 2; sent < LIMITS.MFA_CODES_PER_HOUR; sent += 1) {
      clock.advance(LIMITS.MFA_RESEND_COOLDOWN);
      expect((await browser.request('POST', `${API}/auth/mfa/otp/resend/request`, {})).statusCode).toBe(200);
    }
    const codesBefore = mail.to(email).length;
    clock.advance(LIMITS.MFA_RESEND_COOLDOWN);
    const capped = await browser.request('POST', `${API}/auth/mfa/otp/resend/request`, {});
    expect(capped.statusCode).toBe(429);
    const retryAt = new Date(firstSent + 3600_000).toISOString();
    expect(capped.json()).toEqual({
      error_code: 'code.too_many_requested',
      error_message: `You have asked for too many codes. Try again after ${retryAt}, or use another method.`,
      error_params: { retry_at: retryAt },
    });
    expect(Number(capped.headers['retry-after'])).toBe(Math.ceil((firstSent + 3600_000 - clock.now()) / 1000));
    expect(mail.to(email)).toHaveLength(codesBefore);

    const shown = await showUser(server.context, email);
    expect(shown.lockout.codeCaps).toEqual([{ purpose: 'mfa_email', issued: LIMITS.MFA_CODES_PER_HOUR, until: retryAt }]);
    await unlockUser(server.context, email);
    expect((await showUser(server.context, email)).lockout.codeCaps).toEqual([]);
    expect((await browser.request('POST', `${API}/auth/mfa/otp/resend/request`, {})).statusCode).toBe(200);
    expect(mail.to(email)).toHaveLength(codesBefore + 1);
  });
});
