import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import { fakeClock } from './support/fakes.ts';
import { API, answer, logIn, type StepAnswer } from './support/mfa.ts';
import { userWithTotp } from './support/signed-in.ts';
import { openLoginScreen, submitLogin, TestBrowser } from './support/sign-in.ts';
import { totpCodeAt } from '../../server/mfa/totp.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

/** Back from the second factor to the login screen (issue 27.9): the password may be given again, and nothing of the first carries over. */
describe('the login screen come back to from the second factor (MFA on)', () => {
  const clock = fakeClock(Date.now());
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp({ clock: clock.now });
  });
  afterAll(async () => {
    await server.close();
  });

  it('says the sign-in may start again at the password, and a wrong one changes nothing', async () => {
    const first = { email: 'first-try@example.com', password: 'First-Passw0rd!42' };
    await addUser({ db: server.db }, first);
    const browser = new TestBrowser(server.app);
    const { interaction } = await openLoginScreen(browser, server.publicClient);
    expect(answer<StepAnswer>(await submitLogin(browser, first.email, first.password)).challenge).toBe('MFA_SETUP');
    const resumed = answer<StepAnswer>(await browser.request('GET', `${API}/authorize?interaction=${interaction}`));
    expect(resumed).toMatchObject({ challenge: 'MFA_SETUP', parameters: { resumed: true, restartable: true } });
    expect((await submitLogin(browser, first.email, 'Wrong-Passw0rd!')).statusCode).toBe(401);
    expect(answer<StepAnswer>(await browser.request('GET', `${API}/authorize?interaction=${interaction}`)).challenge).toBe('MFA_SETUP');
  });

  it("signs in the second account given on its own second factor, never the first one's", async () => {
    const second = await userWithTotp(server, 'second-account@example.com', clock.now());
    const first = { email: 'typo-account@example.com', password: 'Typo-Passw0rd!42' };
    await addUser({ db: server.db }, first);
    const browser = new TestBrowser(server.app);
    const { answer: atFactor } = await logIn(browser, { ...server.publicClient, ...first });
    expect(atFactor.challenge).toBe('MFA_SETUP');
    // A factor set up for the first account is in progress when the person goes Back.
    expect(answer<StepAnswer>(await browser.request('POST', `${API}/auth/2fa/initialization`, { type: 'totp' })).challenge).toBe('SETUP_SOFTWARE_TOKEN_MFA');
    const again = answer<StepAnswer>(await submitLogin(browser, second.user.email, second.user.password));
    expect(again.challenge).toBe('SOFTWARE_TOKEN_MFA');
    // The first account's setup is gone: its verification is no step of this sign-in any more.
    expect((await browser.request('POST', `${API}/auth/2fa/verification`, { code: '000000' })).json().error_code).toBe('step.out_of_order');
    clock.advance(30);
    const done = answer<StepAnswer>(await browser.request('POST', `${API}/auth/mfa/verification`, { code: totpCodeAt(second.user.secret, clock.now()) }));
    expect(done.redirect_to).toBeDefined();
  });
});
