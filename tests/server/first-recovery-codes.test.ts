/**
 * A first second factor set up at sign-in (an existing account without one, MFA required) ends with the account's
 * recovery codes, shown once on a step of their own (SAVE_RECOVERY_CODES) before the sign-in goes on. The server makes
 * and hashes them, shows them once, and refuses any other step's call while that step is owed, because the flow graph
 * leads from it nowhere else: a flow that declared a way around it would be let through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import { LIMITS } from '../../server/limits.ts';
import { removeAllSecondFactors } from '../../server/mfa/factor-reset.ts';
import { totpCodeAt } from '../../server/mfa/totp.ts';
import { ACCOUNT_CLIENT } from './support/account.ts';
import { capturingMailer, fakeClock } from './support/fakes.ts';
import { fixtureFlows } from './support/fixture-flows.ts';
import { API, answer, logIn, type StepAnswer } from './support/mfa.ts';
import { TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const PASSWORD = 'Recovery-Passw0rd!';

/** An account without a second factor, its sign-in answered up to the authenticator app's first code. */
async function setUpFirstFactor(server: TestApp, email: string, now: number): Promise<{ browser: TestBrowser; done: StepAnswer; secret: string }> {
  await addUser({ db: server.db }, { email, password: PASSWORD });
  const browser = new TestBrowser(server.app);
  const { answer: first } = await logIn(browser, { ...ACCOUNT_CLIENT, email, password: PASSWORD });
  expect(first.challenge).toBe('MFA_SETUP');
  const setup = answer<StepAnswer>(await browser.request('POST', `${API}/auth/2fa/initialization`, { type: 'totp' }));
  const secret = String(setup.parameters?.secret);
  const done = answer<StepAnswer>(await browser.request('POST', `${API}/auth/2fa/verification`, { code: totpCodeAt(secret, now) }));
  return { browser, done, secret };
}

const storedCodes = async (server: TestApp, email: string) =>
  (await server.db.query<{ code_hash: string }>('select code_hash from recovery_codes r join users u on u.id = r.user_id where u.email = $1', [email])).rows.map((row) => row.code_hash);

describe('the first recovery codes of a factor set up at sign-in (MFA on, the default)', () => {
  const clock = fakeClock(Date.now());
  let server: TestApp;
  let users = 0;
  const tick = () => {
    clock.advance(LIMITS.TOTP_PERIOD + 1);
    return clock.now();
  };
  const newEmail = () => `first-codes-${(users += 1)}@example.com`;

  beforeAll(async () => {
    server = await startTestApp({ clock: clock.now, mailer: capturingMailer().mailer });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers the authenticator app\'s first code with new recovery codes, stored only as hashes, and goes on to the app once saved', async () => {
    const email = newEmail();
    const { browser, done } = await setUpFirstFactor(server, email, tick());
    expect(done.challenge).toBe('SAVE_RECOVERY_CODES');
    const codes = done.parameters?.recovery_codes as string[];
    expect(codes).toHaveLength(LIMITS.RECOVERY_CODE_COUNT);
    const stored = await storedCodes(server, email);
    expect(stored).toHaveLength(LIMITS.RECOVERY_CODE_COUNT);
    for (const hash of stored) {
      expect(hash.startsWith('$argon2id$')).toBe(true);
      expect(codes.some((code) => hash.includes(code) || hash.includes(code.replace(/-/g, '')))).toBe(false);
    }
    const saved = answer<StepAnswer>(await browser.request('POST', `${API}/auth/mfa/recovery-codes`, {}));
    expect(saved.redirect_to).toEqual(expect.any(String));
  });

  it('shows the codes once: entered again it has none, going back to the setup or saving twice is refused, and no second set is made', async () => {
    const email = newEmail();
    const { browser, done, secret } = await setUpFirstFactor(server, email, tick());
    expect(done.challenge).toBe('SAVE_RECOVERY_CODES');
    const again = await browser.request('POST', `${API}/auth/2fa/verification`, { code: totpCodeAt(secret, tick()) });
    expect({ status: again.statusCode, code: again.json<{ error_code?: string }>().error_code }).toEqual({ status: 409, code: 'step.out_of_order' });
    const before = await storedCodes(server, email);
    // Entered again (a reload), the step is told where the sign-in stands, without the codes.
    expect(answer<StepAnswer>(await browser.request('GET', `${API}/auth/mfa/recovery-codes`))).toEqual({ challenge: 'SAVE_RECOVERY_CODES', parameters: {} });
    answer(await browser.request('POST', `${API}/auth/mfa/recovery-codes`, {}));
    const twice = await browser.request('POST', `${API}/auth/mfa/recovery-codes`, {});
    expect(twice.statusCode).not.toBe(200);
    expect(twice.body).not.toContain('recovery_codes');
    expect(await storedCodes(server, email)).toEqual(before);
  });

  it('refuses every later step\'s call while the codes are owed, so no sign-in reaches the app around them', async () => {
    const { browser, done } = await setUpFirstFactor(server, newEmail(), tick());
    expect(done.challenge).toBe('SAVE_RECOVERY_CODES');
    for (const path of ['consent/deny', 'consent', 'company-management/companies']) {
      const response = await browser.request('POST', `${API}/${path}`, {});
      expect({ path, status: response.statusCode, code: response.json<{ error_code?: string }>().error_code }).toEqual({ path, status: 409, code: 'step.out_of_order' });
    }
    expect(answer<StepAnswer>(await browser.request('POST', `${API}/auth/mfa/recovery-codes`, {})).redirect_to).toEqual(expect.any(String));
  });

  it('shows a new set after an operator reset the second factor (sso user reset-mfa removes the codes too)', async () => {
    const email = newEmail();
    const { browser, done } = await setUpFirstFactor(server, email, tick());
    const old = done.parameters?.recovery_codes as string[];
    answer(await browser.request('POST', `${API}/auth/mfa/recovery-codes`, {}));
    const user = await server.db.query<{ id: string }>('select id from users where email = $1', [email]);
    await removeAllSecondFactors(server.db, user.rows[0]!.id);
    const next = new TestBrowser(server.app);
    expect((await logIn(next, { ...ACCOUNT_CLIENT, email, password: PASSWORD })).answer.challenge).toBe('MFA_SETUP');
    const setup = answer<StepAnswer>(await next.request('POST', `${API}/auth/2fa/initialization`, { type: 'totp' }));
    const again = answer<StepAnswer>(await next.request('POST', `${API}/auth/2fa/verification`, { code: totpCodeAt(String(setup.parameters?.secret), tick()) }));
    expect(again.challenge).toBe('SAVE_RECOVERY_CODES');
    const fresh = again.parameters?.recovery_codes as string[];
    expect(fresh).toHaveLength(LIMITS.RECOVERY_CODE_COUNT);
    expect(fresh.filter((code) => old.includes(code))).toEqual([]);
  });

  it('gives no new set to a person who still has live codes (a sign-in after a recovery code sets up a new factor)', async () => {
    const email = newEmail();
    const { browser, done } = await setUpFirstFactor(server, email, tick());
    const codes = done.parameters?.recovery_codes as string[];
    answer(await browser.request('POST', `${API}/auth/mfa/recovery-codes`, {}));
    const next = new TestBrowser(server.app);
    const { answer: first } = await logIn(next, { ...ACCOUNT_CLIENT, email, password: PASSWORD });
    expect(first.challenge).toBe('SOFTWARE_TOKEN_MFA');
    const recovered = answer<StepAnswer>(await next.request('POST', `${API}/auth/mfa/recovery`, { code: codes[0] }));
    expect(recovered.challenge).toBe('MFA_SETUP');
    const setup = answer<StepAnswer>(await next.request('POST', `${API}/auth/2fa/initialization`, { type: 'totp' }));
    const finished = answer<StepAnswer>(await next.request('POST', `${API}/auth/2fa/verification`, { code: totpCodeAt(String(setup.parameters?.secret), tick()) }));
    expect(finished.challenge).toBeUndefined();
    expect(finished.redirect_to).toEqual(expect.any(String));
  });
});

describe('a flow that declared a way around the recovery codes', () => {
  const clock = fakeClock(Date.now());
  let server: TestApp;
  // The codes step links to the consent step, which the server then admits at SAVE_RECOVERY_CODES: a skip the flows allow.
  const fixture = fixtureFlows({
    'flows/mfa.json': (flow) => {
      const steps = flow.steps as Record<string, Record<string, unknown>>;
      steps['mfa-recovery-codes']!.links = [{ label: 'mfaRecoveryCodes.saved', go: 'consent' }];
    },
    'flows/consent.json': (flow) => {
      const steps = flow.steps as Record<string, Record<string, unknown>>;
      steps.consent!.admits = ['SAVE_RECOVERY_CODES'];
    },
  });

  beforeAll(async () => {
    server = await startTestApp({ clock: clock.now, mailer: capturingMailer().mailer, flowsRoot: fixture.root });
  });
  afterAll(async () => {
    await server?.close();
    fixture.remove();
  });

  it('is let through by the server: the refusal comes from the flow graph, not from a rule of its own', async () => {
    clock.advance(LIMITS.TOTP_PERIOD + 1);
    const { browser, done } = await setUpFirstFactor(server, 'skippable@example.com', clock.now());
    expect(done.challenge).toBe('SAVE_RECOVERY_CODES');
    const skipped = await browser.request('POST', `${API}/consent/deny`, {});
    expect(skipped.statusCode, skipped.body).toBe(200);
    expect(skipped.json<StepAnswer>().redirect_to).toEqual(expect.any(String));
  });
});
