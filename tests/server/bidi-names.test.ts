import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import { LIMITS } from '../../server/limits.ts';
import { signInToAccountPage, type AccountPage } from './support/account.ts';
import { fakeClock } from './support/fakes.ts';
import { browserAtSignIn, submitRegistration } from './support/registration.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

/** Names that would read as something else where they are shown: each holds a bidirectional control character. */
const SPOOFED = ['Mallory\u202Eroda', 'Eve\u2066Admin\u2069', 'Bob\u200F', '\u061CTrent', 'Carol\u202Abank\u202C'];

describe('names and factor labels refuse bidirectional control characters', () => {
  const clock = fakeClock(Date.now());
  let server: TestApp;
  let page: AccountPage;
  let factorId: string;
  beforeAll(async () => {
    server = await startTestApp({ clock: clock.now });
    const user = { email: 'bidi@example.com', password: 'Bidi-Passw0rd!' };
    await addUser({ db: server.db }, user);
    page = await signInToAccountPage(server, user, () => {
      clock.advance(LIMITS.TOTP_PERIOD + 1);
      return clock.now();
    });
    factorId = (await page.call('GET', '/account/factors')).json<{ factors: Array<{ id: string }> }>().factors[0]!.id;
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(SPOOFED)('the account page refuses %j as a name and as a factor label', async (spoofed) => {
    for (const [path, body] of [
      ['/account/profile', { firstName: spoofed, lastName: 'Smith' }],
      ['/account/profile', { firstName: 'Ann', lastName: spoofed }],
      [`/account/factors/${factorId}/name`, { label: spoofed }],
    ] as const) {
      const answer = await page.call('POST', path, body);
      expect(answer.statusCode, `${path} ${answer.body}`).toBe(400);
      expect(answer.json().error_code).toBe('request.invalid');
    }
  });

  it.each(SPOOFED)('registration refuses %j as a name', async (spoofed) => {
    const browser = await browserAtSignIn(server);
    const answer = await submitRegistration(browser, { email: 'spoof@example.com', firstName: spoofed });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error_code).toBe('request.invalid');
  });

  it('still takes names in any script, right-to-left ones included', async () => {
    expect((await page.call('POST', '/account/profile', { firstName: 'مريم', lastName: 'כהן' })).statusCode).toBe(200);
  });
});
