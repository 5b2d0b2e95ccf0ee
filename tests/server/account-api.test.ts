import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import { LIMITS } from '../../server/limits.ts';
import { totpCodeAt } from '../../server/mfa/totp.ts';
import { signInToAccountPage, type AccountPage } from './support/account.ts';
import { capturingMailer, fakeClock } from './support/fakes.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

interface FactorList {
  factors: Array<{ id: string; kind: string; label: string | null; destination: string | null; isDefault: boolean; addedAt: string; lastUsedAt: string | null }>;
  stepUpUntil: string | null;
}

describe('the account page API (MFA on, the default)', () => {
  const clock = fakeClock(Date.now());
  const mail = capturingMailer();
  let server: TestApp;
  const tick = () => {
    clock.advance(LIMITS.TOTP_PERIOD + 1);
    return clock.now();
  };
  let userCount = 0;

  async function newUser(): Promise<{ email: string; password: string }> {
    userCount += 1;
    const user = { email: `account-${userCount}@example.com`, password: 'Account-Passw0rd!' };
    await addUser({ db: server.db }, user);
    return user;
  }

  async function stepUp(page: AccountPage, factorId: string): Promise<void> {
    const started = await page.call('POST', '/account/step-up', { factorId });
    expect(started.statusCode).toBe(200);
    const proven = await page.call('POST', '/account/step-up', { factorId, code: totpCodeAt(page.secret, tick()) });
    expect(proven.statusCode, proven.body).toBe(200);
  }

  async function factorsOf(page: AccountPage): Promise<FactorList> {
    const response = await page.call('GET', '/account/factors');
    expect(response.statusCode, response.body).toBe(200);
    return response.json<FactorList>();
  }

  beforeAll(async () => {
    server = await startTestApp({ clock: clock.now, mailer: mail.mailer });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses every account call without the account page\'s own token', async () => {
    const none = await server.app.inject({ method: 'GET', url: '/api/sso/v3/account/factors' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ error_code: 'account.signed_out' });
    const forged = await server.app.inject({ method: 'GET', url: '/api/sso/v3/account/factors', headers: { authorization: 'Bearer abcdefghijklmnopqrstuvwxyz0123' } });
    expect(forged.statusCode).toBe(401);
  });

  it('lists the sign-in methods with kind, added and last used', async () => {
    const page = await signInToAccountPage(server, await newUser(), tick);
    const { factors } = await factorsOf(page);
    expect(factors).toEqual([expect.objectContaining({ kind: 'totp', destination: null, label: null, isDefault: false })]);
    expect(Date.parse(factors[0]!.addedAt)).toBeGreaterThan(0);
  });

  it('adds an email factor only after a fresh second factor, and lists it masked', async () => {
    const user = await newUser();
    const page = await signInToAccountPage(server, user, tick);
    const refused = await page.call('POST', '/account/factors', { kind: 'email' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error_code: 'account.step_up_required' });

    const [totp] = (await factorsOf(page)).factors;
    await stepUp(page, totp!.id);
    const begun = await page.call('POST', '/account/factors', { kind: 'email' });
    expect(begun.statusCode, begun.body).toBe(200);
    const { factorId } = begun.json<{ factorId: string }>();
    const wrong = await page.call('POST', `/account/factors/${factorId}/confirmation`, { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    const confirmed = await page.call('POST', `/account/factors/${factorId}/confirmation`, { code: await mail.latestCode(user.email) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const kinds = confirmed.json<FactorList>().factors.map((factor) => [factor.kind, factor.destination]);
    expect(kinds).toEqual(expect.arrayContaining([['email', expect.stringMatching(/•/)], ['totp', null]]));
  });

  it('asks for the step-up again once five minutes have passed', async () => {
    const page = await signInToAccountPage(server, await newUser(), tick);
    const [totp] = (await factorsOf(page)).factors;
    await stepUp(page, totp!.id);
    clock.advance(LIMITS.ACCOUNT_STEP_UP_TTL + 1);
    const late = await page.call('POST', '/account/factors', { kind: 'totp' });
    expect(late.json()).toMatchObject({ error_code: 'account.step_up_required' });
  });

  it('counts a sign-in that proved the factor as the step-up for five minutes, but not the first one that only set it up', async () => {
    const user = await newUser();
    const first = await signInToAccountPage(server, user, tick);
    expect((await factorsOf(first)).stepUpUntil).toBeNull();
    const again = await signInToAccountPage(server, { ...user, secret: first.secret }, tick);
    const { stepUpUntil } = await factorsOf(again);
    expect(Date.parse(stepUpUntil ?? '')).toBeGreaterThan(clock.now());
    const begun = await again.call('POST', '/account/factors', { kind: 'email' });
    expect(begun.statusCode, begun.body).toBe(200);
    clock.advance(LIMITS.ACCOUNT_STEP_UP_TTL + 1);
    expect((await again.call('POST', '/account/factors', { kind: 'email' })).json()).toMatchObject({ error_code: 'account.step_up_required' });
  });

  it('says to wait for the next code when the step-up gets the authenticator code the sign-in just used', async () => {
    const user = await newUser();
    const page = await signInToAccountPage(server, user, tick);
    const [totp] = (await factorsOf(page)).factors;
    const used = totpCodeAt(page.secret, clock.now());
    const replayed = await page.call('POST', '/account/step-up', { factorId: totp!.id, code: used });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json()).toMatchObject({ error_code: 'code.invalid', error_params: { reason: 'mfaTotp.codeUsed' } });
    expect(replayed.json<{ error_message: string }>().error_message).toMatch(/Wait for the next code/);
  });

  it('renames a factor, makes one the default, and never removes the last one while MFA is required', async () => {
    const user = await newUser();
    const page = await signInToAccountPage(server, user, tick);
    const [totp] = (await factorsOf(page)).factors;
    const renamed = await page.call('POST', `/account/factors/${totp!.id}/name`, { label: '  Work phone  ' });
    expect(renamed.json<FactorList>().factors[0]).toMatchObject({ label: 'Work phone' });
    const preferred = await page.call('POST', `/account/factors/${totp!.id}/default`);
    expect(preferred.json<FactorList>().factors[0]).toMatchObject({ isDefault: true });

    const unproven = await page.call('POST', `/account/factors/${totp!.id}/removal`);
    expect(unproven.json()).toMatchObject({ error_code: 'account.step_up_required' });
    await stepUp(page, totp!.id);
    const last = await page.call('POST', `/account/factors/${totp!.id}/removal`);
    expect(last.statusCode).toBe(409);
    expect(last.json()).toMatchObject({ error_code: 'account.last_factor' });

    const begun = (await page.call('POST', '/account/factors', { kind: 'email' })).json<{ factorId: string }>();
    await page.call('POST', `/account/factors/${begun.factorId}/confirmation`, { code: await mail.latestCode(user.email) });
    const removed = await page.call('POST', `/account/factors/${totp!.id}/removal`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json<FactorList>().factors.map((factor) => factor.kind)).toEqual(['email']);
  });

  it('answers a factor id that is not the caller\'s, or not an id at all, as not found or bad input', async () => {
    const page = await signInToAccountPage(server, await newUser(), tick);
    const other = await signInToAccountPage(server, await newUser(), tick);
    const [theirs] = (await factorsOf(other)).factors;
    expect((await page.call('POST', `/account/factors/${theirs!.id}/name`, { label: 'mine now' })).statusCode).toBe(404);
    expect((await page.call('POST', '/account/factors/not-a-uuid/default')).statusCode).toBe(400);
  });
});
