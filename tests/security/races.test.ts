import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import type { CodePurpose } from '../../server/auth/one-time-codes.ts';
import { generateFirstRecoveryCodes, generateRecoveryCodes, recoveryCodeDeps, recoveryCodeStatus, redeemRecoveryCode } from '../../server/auth/recovery-codes.ts';
import { LIMITS } from '../../server/limits.ts';
import { verifyFactorCode } from '../../server/mfa/factor-flow.ts';
import { newTotpSecret, totpCodeAt } from '../../server/mfa/totp.ts';
import { createInvitation, ensureInvitedUser, findInvitation, redeemInvitation } from '../../server/store/invitations.ts';
import { createPendingFactor } from '../../server/store/mfa-factors.ts';
import { addFirstRecoveryCodes } from '../../server/store/recovery-codes.ts';
import { capturingMailer, fakeClock } from '../server/support/fakes.ts';
import { browserAtSignIn, submitRegistration, submitRegistrationCode } from '../server/support/registration.ts';
import { exchangeCode, signIn, TestBrowser } from '../server/support/sign-in.ts';
import { startTestApp, type TestApp } from '../server/support/test-app.ts';
import { campaignBackends, campaignCounter } from './support/campaign.ts';

const API = '/api/sso/v3';
const PARALLEL = 50;
const ROUNDS = 3;
/** Parallel makings of a set of recovery codes: each hashes ten codes, and all of them fit the argon2 gate's queue. */
const PARALLEL_SETS = Math.floor(LIMITS.ARGON2_MAX_WAITING / LIMITS.RECOVERY_CODE_COUNT);
/** Parallel replacements: each set's first code is then tried in turn, and fewer wrong ones than the guess budget leave the live set its answer. */
const REPLACEMENT_SETS = Math.min(PARALLEL_SETS, LIMITS.ONE_TIME_CODE_MAX_FAILURES - 1);

describe.each(campaignBackends().map((backend) => [backend.name, backend] as const))('races for one-time secrets on %s', (name, backend) => {
  const clock = fakeClock(Date.now());
  const mail = capturingMailer();
  const counter = campaignCounter(`races on ${name} (rounds of ${PARALLEL} parallel redemptions, each with exactly one success)`);
  let server: TestApp;
  let userId: string;

  /** Runs `redeem` PARALLEL times at once, `ROUNDS` times over, and expects exactly one success each round. */
  async function race(prepare: (round: number) => Promise<() => Promise<boolean>>): Promise<void> {
    for (let round = 0; round < ROUNDS; round += 1) {
      const redeem = await prepare(round);
      const results = await Promise.all(Array.from({ length: PARALLEL }, () => redeem().catch(() => false)));
      const successes = results.filter(Boolean).length;
      counter.record(successes === 1);
      expect(successes).toBe(1);
    }
  }

  beforeAll(async () => {
    server = await startTestApp({ backend, clock: clock.now, mailer: mail.mailer, env: { MFA_REQUIRED: 'false' } });
    userId = (await server.db.query<{ id: string }>('select id from users where email = $1', [server.user.email])).rows[0]!.id;
  }, 120_000);
  afterAll(async () => {
    counter.print();
    await server.close();
  });

  it('confirms a password reset code once', { timeout: 120_000 }, async () => {
    const owner = { email: `racer-${name}@example.com`, password: 'Racing-Passw0rd!' };
    await addUser({ db: server.db }, owner);
    await race(async (round) => {
      await server.app.inject({ method: 'POST', url: `${API}/password/reset`, headers: { 'content-type': 'application/json' }, payload: { email: owner.email } });
      const code = await mail.latestCode(owner.email);
      const browser = new TestBrowser(server.app);
      const bodies = await Promise.all(Array.from({ length: PARALLEL }, async () => ({ email: owner.email, code, password: await browser.encrypt(`Round-${round}-Passw0rd!`) })));
      let next = 0;
      return async () => (await browser.request('POST', `${API}/password/reset/confirmation`, bodies[next++])).statusCode === 200;
    });
  });

  it.each<CodePurpose>(['mfa_email', 'mfa_sms'])('redeems a %s code once', async (purpose) => {
    await race(async () => {
      const now = new Date(clock.now());
      const code = await server.context.codes.issue(userId, purpose, now);
      return async () => (await server.context.codes.redeem(userId, purpose, code, now)) === 'redeemed';
    });
  });

  it('accepts an authenticator time step once', async () => {
    const secret = newTotpSecret();
    const factorId = await createPendingFactor(server.db, { userId, kind: 'totp', secretSealed: server.context.box.seal(secret, 'mfa-totp-secret') });
    await race(async () => {
      clock.advance(3 * LIMITS.TOTP_PERIOD);
      const code = totpCodeAt(secret, clock.now());
      return async () => {
        await verifyFactorCode(server.context, userId, { kind: 'totp', setup: true, factorId }, code);
        return true;
      };
    });
  });

  it('spends a recovery code once', async () => {
    await race(async (round) => {
      const now = new Date(clock.now());
      const deps = recoveryCodeDeps(server.context);
      const [code] = await generateRecoveryCodes(deps, userId, now);
      const typed = round % 2 === 0 ? code! : code!.toLowerCase();
      return async () => (await redeemRecoveryCode(deps, userId, typed, now)).kind === 'accepted';
    });
  });

  /** A user of its own: a test's wrong recovery codes count in that account's guess budget only. */
  async function newAccount(label: string): Promise<string> {
    return (await addUser({ db: server.db }, { email: `${label}-${name}@example.com`, password: 'Racing-Passw0rd!' })).id;
  }

  it('makes the first set of recovery codes once, and the set it shows is the live one', async () => {
    const deps = recoveryCodeDeps(server.context);
    const userId = await newAccount('first-codes');
    for (let round = 0; round < ROUNDS; round += 1) {
      await server.db.query('delete from recovery_codes where user_id = $1', [userId]);
      const now = new Date(clock.now());
      const made = await Promise.all(Array.from({ length: PARALLEL_SETS }, () => generateFirstRecoveryCodes(deps, userId, now)));
      const shown = made.filter((codes) => codes !== undefined);
      counter.record(shown.length === 1);
      expect(shown).toHaveLength(1);
      expect((await recoveryCodeStatus(server.db, userId)).left).toBe(LIMITS.RECOVERY_CODE_COUNT);
      expect((await redeemRecoveryCode(deps, userId, shown[0]![round]!, now)).kind).toBe('accepted');
    }
  });

  it('stores a first set of recovery codes once, however many requests store one at the same moment', async () => {
    const userId = await newAccount('stored-codes');
    await race(async (round) => {
      await server.db.query('delete from recovery_codes where user_id = $1', [userId]);
      let call = 0;
      return async () => {
        call += 1;
        const hashes = Array.from({ length: LIMITS.RECOVERY_CODE_COUNT }, (_, index) => `stored-hash-${round}-${call}-${index}`);
        return addFirstRecoveryCodes(server.db, userId, hashes, new Date(clock.now()));
      };
    });
    expect((await recoveryCodeStatus(server.db, userId)).left).toBe(LIMITS.RECOVERY_CODE_COUNT);
  });

  it('replaces recovery codes one whole set at a time: of parallel new sets, one is left, every code of it working', async () => {
    const deps = recoveryCodeDeps(server.context);
    const userId = await newAccount('new-codes');
    const now = new Date(clock.now());
    const sets = await Promise.all(Array.from({ length: REPLACEMENT_SETS }, () => generateRecoveryCodes(deps, userId, now)));
    expect((await recoveryCodeStatus(server.db, userId)).left).toBe(LIMITS.RECOVERY_CODE_COUNT);
    const redeemed = async (code: string) => (await redeemRecoveryCode(deps, userId, code, now)).kind === 'accepted';
    const live: string[][] = [];
    for (const set of sets) if (await redeemed(set[0]!)) live.push(set);
    counter.record(live.length === 1);
    expect(live).toHaveLength(1);
    for (const code of live[0]!.slice(1)) expect(await redeemed(code)).toBe(true);
  });

  it('accepts an invitation once', async () => {
    const invited = await ensureInvitedUser(server.db, `invited-${name}@example.com`);
    await race(async () => {
      const now = new Date(clock.now());
      const token = await createInvitation(server.db, { userId: invited.id, companyId: null, clientId: server.publicClient.clientId, now, expiresAt: new Date(now.getTime() + 3600_000) });
      const invitation = await findInvitation(server.db, token);
      return async () => redeemInvitation(server.db, invitation!.id, now);
    });
  });

  it('exchanges an authorization code at /oidc/token once', { timeout: 120_000 }, async () => {
    await race(async () => {
      const { callback, codeVerifier } = await signIn(new TestBrowser(server.app), { ...server.publicClient, email: server.user.email, password: server.user.password });
      return async () => (await exchangeCode(server.app, server.publicClient, callback, codeVerifier)).statusCode === 200;
    });
  });

  it('verifies a registration code once, making one account', { timeout: 120_000 }, async () => {
    await race(async (round) => {
      const email = `signup-${name}-${round}@example.com`;
      const browser = await browserAtSignIn(server);
      expect((await submitRegistration(browser, { email })).statusCode).toBe(200);
      const code = await mail.latestCode(email);
      return async () => (await submitRegistrationCode(browser, code)).statusCode === 200;
    });
    const made = await server.db.query<{ n: number }>("select count(*)::int as n from users where email like 'signup-%'");
    expect(made.rows[0]?.n).toBe(ROUNDS);
  });
});
