import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '../../server/limits.ts';
import { argon2Gate } from '../../server/auth/passwords.ts';
import { openLoginScreen, signIn, submitLogin, TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const FLOOD = 200;

describe('a flood of sign-ins', () => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp({ env: { MFA_REQUIRED: 'false' } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('keeps the password-check queue bounded, answers the overflow 503 with Retry-After, and lets the right password in after', { timeout: 120_000 }, async () => {
    // Each flooding browser has its own sign-in on the login screen, from its own address, guessing unknown accounts.
    const browsers: TestBrowser[] = [];
    for (let index = 0; index < FLOOD; index += 1) {
      const browser = new TestBrowser(server.app, `127.0.${Math.floor(index / 200) + 1}.${(index % 200) + 1}`);
      await openLoginScreen(browser, server.publicClient);
      browsers.push(browser);
    }
    const answers = await Promise.all(browsers.map((browser, index) => submitLogin(browser, `nobody-${index}@example.com`, 'Guess-Passw0rd!')));

    const refused = answers.filter((answer) => answer.statusCode === 503);
    const checked = answers.filter((answer) => answer.statusCode === 401);
    expect(refused.length + checked.length).toBe(FLOOD);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer.headers['retry-after']).toBe(String(LIMITS.OVERLOAD_RETRY_AFTER));
      expect(answer.json()).toEqual({ error_code: 'server.unavailable', error_message: expect.any(String) });
    }
    expect(argon2Gate.peakWaiting()).toBeLessThanOrEqual(LIMITS.ARGON2_MAX_WAITING);
    expect(argon2Gate.waiting()).toBe(0);

    // A client honouring Retry-After comes back once the server has caught up with the flood.
    await vi.waitFor(() => expect(server.app.isUnderPressure()).toBe(false), { timeout: 15_000, interval: 200 });

    const { callback } = await signIn(new TestBrowser(server.app, '127.0.9.9'), { ...server.publicClient, email: server.user.email, password: server.user.password });
    expect(callback.searchParams.get('code')).toBeTruthy();

    // The refusals the password queue made are counted (the event-loop guard may have refused others before the step).
    const overloaded = Number(/sso_sign_ins_total\{result="overloaded"\} (\d+)/.exec((await server.context.metrics.scrape()).body)?.[1]);
    expect(overloaded).toBeGreaterThan(0);
    expect(overloaded).toBeLessThanOrEqual(refused.length);
  });
});
