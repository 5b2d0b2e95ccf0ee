import { createHmac } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import { LIMITS } from '../../server/limits.ts';
import { totpCodeAt } from '../../server/mfa/totp.ts';
import { ACCOUNT_CLIENT, signInToAccountPage, type AccountPage } from './support/account.ts';
import { followToClient } from './support/client-return.ts';
import { capturingMailer, fakeClock } from './support/fakes.ts';
import { API, answer, logIn, type StepAnswer } from './support/mfa.ts';
import { exchangeCode, TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

interface CodesAnswer {
  codes: string[];
  left: number;
  low: boolean;
}

describe('recovery codes (MFA on, the default)', () => {
  const clock = fakeClock(Date.now());
  const mail = capturingMailer();
  let server: TestApp;
  let users = 0;
  const tick = () => {
    clock.advance(LIMITS.TOTP_PERIOD + 1);
    return clock.now();
  };

  beforeAll(async () => {
    server = await startTestApp({ clock: clock.now, mailer: mail.mailer });
  });
  afterAll(async () => {
    await server?.close();
  });

  async function accountWithCodes(): Promise<{ user: { email: string; password: string }; page: AccountPage; codes: string[] }> {
    users += 1;
    const user = { email: `recovery-${users}@example.com`, password: 'Recovery-Passw0rd!' };
    await addUser({ db: server.db }, user);
    const page = await signInToAccountPage(server, user, tick);
    const [factor] = (await page.call('GET', '/account/factors')).json<{ factors: Array<{ id: string }> }>().factors;
    await page.call('POST', '/account/step-up', { factorId: factor!.id, code: totpCodeAt(page.secret, tick()) });
    const made = await page.call('POST', '/account/recovery-codes');
    expect(made.statusCode, made.body).toBe(200);
    return { user, page, codes: made.json<CodesAnswer>().codes };
  }

  /** A fresh browser's sign-in to the account page, up to the second factor, answered with `code` as a recovery code. */
  async function signInWithRecoveryCode(user: { email: string; password: string }, code: string) {
    const browser = new TestBrowser(server.app);
    const { answer: first, codeVerifier } = await logIn(browser, { ...ACCOUNT_CLIENT, ...user });
    expect(['SOFTWARE_TOKEN_MFA', 'SELECT_MFA_TYPE']).toContain(first.challenge);
    const response = await browser.request('POST', `${API}/auth/mfa/recovery`, { code });
    return { browser, response, codeVerifier };
  }

  it('makes 10 different single-use codes of 60 random bits, stores only their hashes, and counts what is left', async () => {
    const { page, codes } = await accountWithCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    // No O/0 and no I/1, so a code written down is not misread.
    for (const code of codes) expect(code).toMatch(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
    const stored = await server.db.query<{ code_hash: string }>('select code_hash from recovery_codes');
    for (const code of codes) expect(stored.rows.map((row) => row.code_hash)).not.toContain(code);
    expect(JSON.stringify(stored.rows)).not.toContain(codes[0]!.replace(/-/g, ''));
    const status = (await page.call('GET', '/account/recovery-codes')).json<CodesAnswer>();
    expect(status).toMatchObject({ left: 10, low: false });
    expect(status).not.toHaveProperty('codes');
  });

  it('needs a fresh second factor to make a new set', async () => {
    const { page } = await accountWithCodes();
    clock.advance(LIMITS.ACCOUNT_STEP_UP_TTL + 1);
    const refused = await page.call('POST', '/account/recovery-codes');
    expect(refused.json()).toMatchObject({ error_code: 'account.step_up_required' });
  });

  it('signs in once with a code, asks for a new factor, records it in amr, and refuses the code the second time', async () => {
    const { user, codes } = await accountWithCodes();
    const { browser, response, codeVerifier } = await signInWithRecoveryCode(user, codes[0]!.toLowerCase().replace(/-/g, ' '));
    const setup = answer<StepAnswer>(response);
    expect(setup.challenge).toBe('MFA_SETUP');
    const chosen = answer<StepAnswer>(await browser.request('POST', `${API}/auth/2fa/initialization`, { type: 'email' }));
    expect(chosen.challenge).toBe('EMAIL_MFA');
    const done = answer<StepAnswer>(await browser.request('POST', `${API}/auth/2fa/verification`, { code: await mail.latestCode(user.email) }));
    const callback = await followToClient(browser, String(done.redirect_to), ACCOUNT_CLIENT.redirectUri);
    const tokens = (await exchangeCode(server.app, ACCOUNT_CLIENT, callback, codeVerifier)).json<{ id_token: string }>();
    expect(decodeJwt(tokens.id_token).amr).toEqual(['pwd', 'mfa', 'otp', 'rc']);

    const again = await signInWithRecoveryCode(user, codes[0]!);
    expect(again.response.statusCode).toBe(400);
    expect(again.response.json()).toMatchObject({ error_code: 'code.invalid' });
    const other = await signInWithRecoveryCode(user, codes[1]!);
    expect(answer<StepAnswer>(other.response).challenge).toBe('MFA_SETUP');
  });

  it('kills the old set when a new one is made, and warns when two or fewer are left', async () => {
    const { user, page, codes } = await accountWithCodes();
    const [factor] = (await page.call('GET', '/account/factors')).json<{ factors: Array<{ id: string }> }>().factors;
    await page.call('POST', '/account/step-up', { factorId: factor!.id, code: totpCodeAt(page.secret, tick()) });
    const fresh = (await page.call('POST', '/account/recovery-codes')).json<CodesAnswer>().codes;
    const old = await signInWithRecoveryCode(user, codes[2]!);
    expect(old.response.json()).toMatchObject({ error_code: 'code.invalid' });
    for (const code of fresh.slice(0, 8)) expect((await signInWithRecoveryCode(user, code)).response.statusCode).toBe(200);
    expect((await page.call('GET', '/account/recovery-codes')).json()).toMatchObject({ left: 2, low: true });
  });

  it('stores each code with a salted slow hash (argon2id), and accepts a code in either case, with or without dashes', async () => {
    const { user, codes } = await accountWithCodes();
    const stored = await server.db.query<{ code_hash: string }>(
      'select code_hash from recovery_codes r join users u on u.id = r.user_id where u.email = $1',
      [user.email],
    );
    expect(stored.rows).toHaveLength(10);
    for (const row of stored.rows) expect(row.code_hash).toMatch(/^\$argon2id\$/);
    for (const typed of [codes[0]!.toLowerCase(), codes[1]!.replace(/-/g, ''), ` ${codes[2]!.toLowerCase().replace(/-/g, '')} `]) {
      expect(answer<StepAnswer>((await signInWithRecoveryCode(user, typed)).response).challenge).toBe('MFA_SETUP');
    }
  });

  it("counts wrong recovery codes in the account's guess budget: after five, even a right code waits, with Retry-After", async () => {
    const { user, codes } = await accountWithCodes();
    for (let wrong = 0; wrong < LIMITS.ONE_TIME_CODE_MAX_FAILURES; wrong += 1) {
      const { response } = await signInWithRecoveryCode(user, `2345-6789-ABC${String.fromCharCode(68 + wrong)}`);
      expect(response.json()).toMatchObject({ error_code: 'code.invalid' });
    }
    const { response } = await signInWithRecoveryCode(user, codes[0]!);
    expect(response.statusCode).toBe(429);
    expect(response.json()).toMatchObject({ error_code: 'code.too_many_attempts' });
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    clock.advance(LIMITS.ONE_TIME_CODE_FAILURE_WINDOW + 1);
    expect(answer<StepAnswer>((await signInWithRecoveryCode(user, codes[0]!)).response).challenge).toBe('MFA_SETUP');
  });

  it('still accepts a code of a set made before argon2id (stored with the keyed hash)', async () => {
    const { user } = await accountWithCodes();
    const owner = await server.db.query<{ id: string }>('select id from users where email = $1', [user.email]);
    const userId = owner.rows[0]!.id;
    const legacy = 'ABCD-EFGH-IJKL';
    const keyed = createHmac('sha256', server.context.box.derive('recovery-codes')).update(`recovery:${userId}:${legacy.replace(/-/g, '')}`).digest('base64url');
    await server.db.query('update recovery_codes set code_hash = $2 where id = (select id from recovery_codes where user_id = $1 limit 1)', [userId, keyed]);
    expect(answer<StepAnswer>((await signInWithRecoveryCode(user, legacy.toLowerCase())).response).challenge).toBe('MFA_SETUP');
  });

  it('refuses malformed recovery codes as bad input, never as a server error', async () => {
    const { user } = await accountWithCodes();
    for (const code of ['', 'short', '0000-0000-0000', 'x'.repeat(500)]) {
      const { response } = await signInWithRecoveryCode(user, code);
      expect(response.statusCode).toBe(400);
    }
  });
  it('tells the second-factor step whether the person has a recovery code left, so only then is one offered', async () => {
    users += 1;
    const without = { email: `recovery-${users}@example.com`, password: 'Recovery-Passw0rd!' };
    await addUser({ db: server.db }, without);
    await signInToAccountPage(server, without, tick);
    // The first sign-in's setup gave the person a set; an account whose factor predates that offer has none.
    await server.db.query('delete from recovery_codes where user_id = (select id from users where email = $1)', [without.email]);
    const none = await logIn(new TestBrowser(server.app), { ...ACCOUNT_CLIENT, ...without });
    expect(none.answer).toMatchObject({ challenge: 'SOFTWARE_TOKEN_MFA', parameters: { has_recovery_codes: false } });
    const { user } = await accountWithCodes();
    const some = await logIn(new TestBrowser(server.app), { ...ACCOUNT_CLIENT, ...user });
    expect(some.answer).toMatchObject({ challenge: 'SOFTWARE_TOKEN_MFA', parameters: { has_recovery_codes: true } });
  });

  const factorKinds = async (email: string) =>
    (
      await server.db.query<{ kind: string }>(
        'select f.kind from mfa_factors f join users u on u.id = f.user_id where u.email = $1 and f.confirmed_at is not null order by f.kind',
        [email],
      )
    ).rows.map((row) => row.kind);

  it.each([
    ['removes the factors marked lost once the new one is proven', true, ['email']],
    ['keeps the other factors when none was marked lost', false, ['email', 'totp']],
  ])('after a recovery code says how many are left, and %s', async (_case, removeLost, kinds) => {
    const { user, codes } = await accountWithCodes();
    const { browser, response } = await signInWithRecoveryCode(user, codes[0]!);
    expect(answer<StepAnswer>(response)).toMatchObject({ challenge: 'MFA_SETUP', parameters: { recovery_codes_left: 9 } });
    const chosen = answer<StepAnswer>(await browser.request('POST', `${API}/auth/2fa/initialization`, { type: 'email', removeLost }));
    expect(chosen.challenge).toBe('EMAIL_MFA');
    // Nothing is removed before the new factor works: a sign-in abandoned here leaves the account as it was.
    expect(await factorKinds(user.email)).toEqual(['totp']);
    const done = answer<StepAnswer>(await browser.request('POST', `${API}/auth/2fa/verification`, { code: await mail.latestCode(user.email) }));
    expect(done.redirect_to).toBeTruthy();
    expect(await factorKinds(user.email)).toEqual(kinds);
  });
});
