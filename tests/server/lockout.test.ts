import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import { loginDelaySeconds } from '../../server/auth/lockout.ts';
import { LIMITS } from '../../server/limits.ts';
import { purgeExpired } from '../../server/store/cleanup.ts';
import { capturingMailer, fakeClock, settle } from './support/fakes.ts';
import { openLoginScreen, submitLogin, TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const GENERIC = { error_code: 'auth.invalid_credentials', error_message: 'Incorrect email or password.' };
/** The answer while the account (or an unknown address) waits a minute or more: the remaining whole minutes, and the seconds. */
const waiting = (seconds: number) => {
  const minutes = Math.ceil(seconds / 60);
  return {
    error_code: 'auth.too_many_attempts',
    error_message: `Too many attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}, or reset your password.`,
    error_params: { minutes: String(minutes), seconds: String(seconds) },
  };
};

/** The answer while the wait is under a minute: the real wait in words and seconds, never "1 minute" for a second. */
const waitingSeconds = (seconds: number) => ({
  error_code: 'auth.too_many_attempts',
  error_message: 'Too many attempts. Try again in a few seconds, or reset your password.',
  error_params: { seconds: String(seconds), reason: 'lockout.fewSeconds' },
});

/** What any answer while a wait of `seconds` runs must be. */
const waitAnswer = (seconds: number) => (seconds < 60 ? waitingSeconds(seconds) : waiting(seconds));

describe('the wait after repeated failures', () => {
  it.each([
    [0, 0],
    [4, 0],
    [5, 1],
    [6, 2],
    [7, 4],
    [14, 512],
    [15, 900],
    [1000, 900],
  ])('after %i failures is %i s', (failures, seconds) => {
    expect(loginDelaySeconds(failures)).toBe(seconds);
  });
});

describe('guessing protection at sign-in', () => {
  let server: TestApp;
  const clock = fakeClock();
  const mail = capturingMailer();
  let counter = 0;
  let addressCounter = 0;

  async function freshUser() {
    counter += 1;
    const user = { email: `guarded${counter}@example.com`, password: 'Right-Passw0rd!' };
    await addUser({ db: server.db }, user);
    return user;
  }
  /** A browser at a login screen, from its own documentation-range address unless one is given. */
  async function loginScreen(ip = `203.0.113.${(addressCounter += 1)}`) {
    const browser = new TestBrowser(server.app, ip);
    await openLoginScreen(browser, server.publicClient);
    return browser;
  }
  const attempt = async (browser: TestBrowser, email: string, password: string) => submitLogin(browser, email, password);

  beforeAll(async () => {
    // Not about the second factor: these users sign in on their password alone (MFA is tested in tests/server/mfa-*.test.ts).
    server = await startTestApp({ env: { MFA_REQUIRED: 'false' }, clock: clock.now, mailer: mail.mailer });
  });
  afterAll(async () => {
    await server.close();
  });

  it('makes the attempt after 5 failures wait 1 s, saying so from the 5th failure on, telling even the right password to try again later, with Retry-After', async () => {
    const user = await freshUser();
    const browser = await loginScreen();
    for (let failure = 1; failure < LIMITS.LOGIN_FAILURES_BEFORE_DELAY; failure += 1) {
      expect((await attempt(browser, user.email, 'wrong')).json()).toEqual(GENERIC);
    }
    const fifth = await attempt(browser, user.email, 'wrong');
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json()).toEqual(waitingSeconds(1));
    const locked = await attempt(browser, user.email, user.password);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual(waitingSeconds(1));
    expect(locked.headers['retry-after']).toBe('1');
    clock.advance(1);
    expect((await attempt(browser, user.email, user.password)).json()).toHaveProperty('redirect_to');
  });

  it('doubles the wait with each further failure, and lifts it by itself', async () => {
    const user = await freshUser();
    const browser = await loginScreen();
    for (let failure = 0; failure < 7; failure += 1) {
      await attempt(browser, user.email, 'wrong');
      clock.advance(loginDelaySeconds(failure + 1));
    }
    // Seven failures, each followed by its wait; the eighth then imposes 8 s.
    const fresh = await loginScreen();
    await attempt(fresh, user.email, 'wrong');
    clock.advance(loginDelaySeconds(8) - 1);
    expect((await attempt(fresh, user.email, user.password)).json()).toEqual(waitingSeconds(1));
    clock.advance(1);
    expect((await attempt(fresh, user.email, user.password)).json()).toHaveProperty('redirect_to');
  });

  it('starts counting again after a successful sign-in', async () => {
    const user = await freshUser();
    const browser = await loginScreen();
    for (let failure = 0; failure < 4; failure += 1) await attempt(browser, user.email, 'wrong');
    expect((await attempt(browser, user.email, user.password)).json()).toHaveProperty('redirect_to');
    const next = await loginScreen();
    for (let failure = 0; failure < 4; failure += 1) await attempt(next, user.email, 'wrong');
    expect((await attempt(next, user.email, user.password)).json()).toHaveProperty('redirect_to');
  });

  it('mails the owner once when the waiting starts, with a reset link', async () => {
    const user = await freshUser();
    const browser = await loginScreen();
    for (let failure = 0; failure < 9; failure += 1) {
      await attempt(browser, user.email, 'wrong');
      clock.advance(loginDelaySeconds(failure + 1));
    }
    await settle();
    const mails = mail.to(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Several failed sign-in attempts on your account');
    expect(mails[0]?.text).toContain('http://localhost:8080/auth/forgot-password');
  });

  it('counts failures per account across browsers', async () => {
    const user = await freshUser();
    for (let failure = 0; failure < LIMITS.LOGIN_FAILURES_BEFORE_DELAY; failure += 1) {
      await attempt(await loginScreen(), user.email, 'wrong');
    }
    expect((await attempt(await loginScreen(), user.email, user.password)).json()).toEqual(waitingSeconds(1));
    clock.advance(1);
  });

  it('slows an address past its limit without locking out an untouched account behind it', async () => {
    const bystander = await freshUser();
    const touched = await freshUser();
    await attempt(await loginScreen(), touched.email, 'wrong');
    const gateway = '198.51.100.77';
    const attacker = await loginScreen(gateway);
    for (let failure = 0; failure < LIMITS.IP_FAILURES_PER_WINDOW; failure += 1) {
      await attempt(attacker, `unknown${failure}@example.com`, 'wrong');
    }
    // Behind the same gateway, an account without failures still signs in with its right password...
    expect((await attempt(await loginScreen(gateway), bystander.email, bystander.password)).json()).toHaveProperty('redirect_to');
    // ...while one with a recent failure gets no further guess from there, though it signs in from elsewhere.
    expect((await attempt(await loginScreen(gateway), touched.email, touched.password)).json()).toEqual(waiting(LIMITS.IP_FAILURE_WINDOW));
    expect((await attempt(await loginScreen(), touched.email, touched.password)).json()).toHaveProperty('redirect_to');
    await attempt(await loginScreen(), touched.email, 'wrong');
    clock.advance(LIMITS.IP_FAILURE_WINDOW);
    expect((await attempt(await loginScreen(gateway), touched.email, touched.password)).json()).toHaveProperty('redirect_to');
  });

  it('holds against 1,000 wrong passwords: others sign in unaffected, the owner once the wait is over', { timeout: 120_000 }, async () => {
    const target = await freshUser();
    const bystander = await freshUser();
    const attacker = await loginScreen('198.51.100.200');
    const guesses = Array.from({ length: 1000 }, (_, index) => `guess-${index}`);
    const answers = new Set<string>();
    const inFlight = 4;
    for (let start = 0; start < guesses.length; start += inFlight) {
      const batch = guesses.slice(start, start + inFlight).map((guess) => attempt(attacker, target.email, guess));
      for (const response of await Promise.all(batch)) answers.add(`${response.statusCode} ${response.body}`);
      if (start === 500) {
        // Mid-attack, the bystander signs in at once from their own address.
        expect((await attempt(await loginScreen(), bystander.email, bystander.password)).json()).toHaveProperty('redirect_to');
      }
    }
    // The first guesses are wrong passwords; every later one meets the wait (the clock does not move), which from
    // the attacker's slowed address lasts until the failure's window there is over.
    expect([...answers]).toEqual([`401 ${JSON.stringify(GENERIC)}`, `429 ${JSON.stringify(waitingSeconds(1))}`, `429 ${JSON.stringify(waiting(LIMITS.IP_FAILURE_WINDOW))}`]);
    const counted = await server.db.query<{ failures: number }>(
      'select failures from login_failures where user_id = (select id from users where email = $1)',
      [target.email],
    );
    // Only the first guesses were ever checked; the rest met the wait (the clock did not move).
    expect(counted.rows[0]?.failures).toBe(LIMITS.LOGIN_FAILURES_BEFORE_DELAY);
    expect((await attempt(await loginScreen(), target.email, target.password)).json()).toEqual(waitingSeconds(1));
    clock.advance(loginDelaySeconds(LIMITS.LOGIN_FAILURES_BEFORE_DELAY));
    expect((await attempt(await loginScreen(), target.email, target.password)).json()).toHaveProperty('redirect_to');
  });

  it('rounds the remaining wait up to whole minutes in the words and gives the seconds as Retry-After', async () => {
    const user = await freshUser();
    const browser = await loginScreen();
    // Twelve failures, each after its wait: the twelfth imposes 128 s, and says so.
    for (let failure = 1; failure <= 12; failure += 1) {
      const answer = await attempt(browser, user.email, 'wrong');
      expect(answer.statusCode).toBe(failure < LIMITS.LOGIN_FAILURES_BEFORE_DELAY ? 401 : 429);
      if (failure < 12) clock.advance(loginDelaySeconds(failure));
    }
    const refused = await attempt(browser, user.email, user.password);
    expect(refused.json()).toEqual(waiting(128));
    expect(refused.headers['retry-after']).toBe(String(loginDelaySeconds(12)));
    clock.advance(loginDelaySeconds(12) - 61);
    expect((await attempt(browser, user.email, user.password)).json()).toEqual(waiting(61));
    clock.advance(61);
    expect((await attempt(browser, user.email, user.password)).json()).toHaveProperty('redirect_to');
  });

  // Waits of 1, 2, 32, 64, 128 s and the longest: under a minute, either side of it, and the cap.
  it.each([0, 1, 5, 6, 7, 10].map((extra) => LIMITS.LOGIN_FAILURES_BEFORE_DELAY + extra))(
    'after failure %i, every attempt until the wait is over answers 429 with the real wait in seconds and Retry-After, never a 401 between',
    async (failures) => {
      const user = await freshUser();
      // A login screen of its own for each attempt: the waits add up to longer than one sign-in lives.
      for (let failure = 1; failure < failures; failure += 1) {
        await attempt(await loginScreen(), user.email, 'wrong');
        clock.advance(loginDelaySeconds(failure));
      }
      const wait = loginDelaySeconds(failures);
      const last = await attempt(await loginScreen(), user.email, 'wrong');
      expect([last.statusCode, last.headers['retry-after'], last.json()]).toEqual([429, String(wait), waitAnswer(wait)]);
      // Probes across the wait (its start, its middle, either side of the last minute, its last second), the right
      // password and a wrong one alike.
      const probes = [...new Set([0, Math.floor(wait / 2), wait - 60, wait - 59, wait - 1])].filter((second) => second >= 0 && second < wait).sort((a, b) => a - b);
      let elapsed = 0;
      for (const probe of probes) {
        clock.advance(probe - elapsed);
        elapsed = probe;
        const during = await attempt(await loginScreen(), user.email, probe % 2 === 0 ? user.password : 'wrong');
        expect([during.statusCode, during.headers['retry-after'], during.json()]).toEqual([429, String(wait - probe), waitAnswer(wait - probe)]);
      }
      clock.advance(wait - elapsed);
      expect((await attempt(await loginScreen(), user.email, user.password)).json()).toHaveProperty('redirect_to');
    },
  );

  it('throttles an email without an account by the same counts, with the identical answer, so the wait reveals nothing', async () => {
    const user = await freshUser();
    const unknown = `nobody${counter}@example.com`;
    const answers = async (email: string) => {
      const browser = await loginScreen();
      const seen: string[] = [];
      for (let failure = 0; failure < LIMITS.LOGIN_FAILURES_BEFORE_DELAY + 1; failure += 1) {
        const answer = await attempt(browser, email, 'Wrong-Passw0rd!');
        seen.push(`${answer.statusCode} ${answer.headers['retry-after'] ?? '-'} ${answer.body}`);
      }
      return seen;
    };
    const known = await answers(user.email);
    expect(known.at(-1)).toBe(`429 1 ${JSON.stringify(waitingSeconds(1))}`);
    expect(await answers(unknown)).toEqual(known);
    clock.advance(1);
  });

  it('keeps no typed address, nor a plain hash of one, for an email without an account', async () => {
    const unknown = `typed${(counter += 1)}@example.com`;
    await attempt(await loginScreen(), unknown, 'Wrong-Passw0rd!');
    const rows = await server.db.query<{ email_key: string }>('select email_key from unknown_email_login_failures');
    const plainHash = createHash('sha256').update(unknown).digest();
    for (const { email_key: key } of rows.rows) {
      expect(key).not.toContain(unknown);
      for (const encoding of ['hex', 'base64', 'base64url'] as const) expect(key).not.toBe(plainHash.toString(encoding));
    }
    expect(rows.rows.length).toBeGreaterThan(0);
  });

  it('forgets a failure count, an account\'s or an unknown address\'s alike, after a long quiet', async () => {
    const user = await freshUser();
    const unknown = `quiet${counter}@example.com`;
    clock.advance(1);
    const failedAt = new Date(clock.now());
    for (const email of [user.email, unknown]) await attempt(await loginScreen(), email, 'Wrong-Passw0rd!');
    const counted = async () => {
      const rows = await server.db.query<{ n: number }>(
        `select (select count(*) from login_failures where user_id = (select id from users where email = $1))
              + (select count(*) from unknown_email_login_failures where last_failure_at = $2) as n`,
        [user.email, failedAt],
      );
      return Number(rows.rows[0]?.n);
    };
    expect(await counted()).toBe(2);
    clock.advance(LIMITS.LOGIN_FAILURES_FORGOTTEN_AFTER + 1);
    await purgeExpired(server.db, new Date(clock.now()));
    expect(await counted()).toBe(0);
  });
});
