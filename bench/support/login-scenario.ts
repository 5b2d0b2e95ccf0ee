/**
 * The logins the bench times, driven as a browser drives them (through `inject`, so no sockets are measured):
 * encrypted credentials → (with MFA) the authenticator app's code → the provider's resume → the client's code.
 * Each login is a different user, as in production: a TOTP time step can be used once per user.
 */
import { insertUser } from '../../server/store/users.ts';
import { totpCodeAt } from '../../server/mfa/totp.ts';
import { openLoginScreen, TestBrowser } from '../../tests/server/support/sign-in.ts';
import { API, answer, setUpTotp, type StepAnswer } from '../../tests/server/support/mfa.ts';
import type { TestApp } from '../../tests/server/support/test-app.ts';
import type { RoundTripCounter } from './counting-database.ts';

const TOTP_STEP_MS = 30_000;
/** Every bench user's password. */
export const BENCH_PASSWORD = 'Bench-Passw0rd!-correct-horse';
const PASSWORD = BENCH_PASSWORD;

/** The sign-ins the benches measure: the default configuration (an authenticator app), and the password alone. */
export const SIGN_IN_PATHS = {
  mfa: { key: 'mfa', label: 'MFA on, authenticator app', env: {}, totp: true },
  password: { key: 'password', label: 'password only (MFA_REQUIRED=false)', env: { MFA_REQUIRED: 'false' }, totp: false },
} as const satisfies Record<string, { key: string; label: string; env: Record<string, string>; totp: boolean }>;

/** One user's login, ready to submit: the login screen open and the password encrypted, as the web app does before the click. */
export interface PreparedLogin {
  browser: TestBrowser;
  email: string;
  encryptedPassword: string;
  /** The PKCE verifier of the login screen's authorization request, for the client's token request. */
  codeVerifier: string;
  totp?: { secret: string; lastUsedStep: number };
}

/** The round trips of each request of one login, and of the mail it sent in the background (a new-browser notice). */
export interface LoginRoundTrips {
  password: number;
  secondFactor: number;
  resume: number;
  background: number;
}

/** What the profiled logins count with: the statement count, and a wait for the mail sent in the background. */
export interface TripCounting {
  /** Every statement sent so far. */
  count(): number;
  /** Runs one request and answers the statements it sent (RoundTripCounter.within). */
  within<T>(request: () => PromiseLike<T>): Promise<{ result: T; trips: number }>;
  /**
   * Resolves once every message the outbox holds has been sent, so its statements are not charged to the next
   * request; answers how many statements the waiting itself sent (they are not the login's).
   */
  settle(): Promise<number>;
}

/** How long the database must stay quiet, the outbox empty, before the background work counts as done. */
const QUIET_MS = 20;

/**
 * Waits until `server`'s outbox has sent everything it holds (mail is queued and sent after the answer, in the
 * background) and, with `count`, until no statement but its own question was sent for QUIET_MS; answers how many
 * times it asked (one statement each).
 */
export async function outboxSettled(server: TestApp, count?: () => number): Promise<number> {
  let asked = 0;
  for (;;) {
    const before = count?.() ?? 0;
    asked += 1;
    const backlog = await server.context.outbox.backlog();
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    if (backlog === 0 && (count === undefined || count() - before === 1)) return asked;
  }
}

/** Distinct client addresses, so the per-address guessing throttle sees many people, not one. */
function addressOf(index: number): string {
  return `10.1.${Math.floor(index / 250)}.${(index % 250) + 1}`;
}

/**
 * `count` users with `passwordHash` (one hash for all: hashing is not what is measured), each at the login screen
 * with the password encrypted; with `totp`, each has set up an authenticator app first (untimed).
 */
export async function prepareLogins(server: TestApp, passwordHash: string, count: number, options: { totp: boolean; prefix: string }): Promise<PreparedLogin[]> {
  const prepared: PreparedLogin[] = [];
  for (let index = 0; index < count; index += 1) {
    const email = `${options.prefix}-${index}@bench.example`;
    await insertUser(server.db, { email, firstName: 'Bench', lastName: `User ${index}`, passwordHash });
    let totp: PreparedLogin['totp'];
    if (options.totp) {
      const setupBrowser = new TestBrowser(server.app, addressOf(index));
      await openLoginScreen(setupBrowser, server.publicClient);
      const first = answer<StepAnswer>(await setupBrowser.request('POST', `${API}/auth/login`, { email, password: await setupBrowser.encrypt(PASSWORD) }));
      if (first.challenge !== 'MFA_SETUP') throw new Error(`expected MFA_SETUP for a new user, got ${JSON.stringify(first)}`);
      const now = Date.now();
      const { secret } = await setUpTotp(setupBrowser, now);
      totp = { secret, lastUsedStep: Math.floor(now / TOTP_STEP_MS) };
    }
    const browser = new TestBrowser(server.app, addressOf(index));
    const { codeVerifier } = await openLoginScreen(browser, server.publicClient);
    prepared.push({ browser, email, encryptedPassword: await browser.encrypt(PASSWORD), codeVerifier, totp });
  }
  // The setup's mail (a factor added) is sent in the background; none of it may run during the timed logins.
  await outboxSettled(server);
  return prepared;
}

/** Trip counting for `completeLogin` from `counter`, settling `server`'s outbox after each request. */
export function tripCounting(server: TestApp, counter: RoundTripCounter): TripCounting {
  return { count: () => counter.count, within: (request) => counter.within(request), settle: () => outboxSettled(server, () => counter.count) };
}

/** The current code of the app, or the next step's when this one was spent on setting it up (one step of drift is allowed). */
function currentTotpCode(totp: NonNullable<PreparedLogin['totp']>): string {
  const step = Math.max(Math.floor(Date.now() / TOTP_STEP_MS), totp.lastUsedStep + 1);
  totp.lastUsedStep = step;
  return totpCodeAt(totp.secret, step * TOTP_STEP_MS);
}

/**
 * Submits a prepared login through to the client's redirect with its code (answered as `callback`); `counting`
 * (when given) reads the database's statement count, to charge each request its share.
 */
export async function completeLogin(login: PreparedLogin, redirectUri: string, counting?: TripCounting): Promise<LoginRoundTrips & { callback: URL }> {
  const counts: LoginRoundTrips = { password: 0, secondFactor: 0, resume: 0, background: 0 };
  const count = counting?.count ?? (() => 0);
  /** Charges `request`'s statements to `stage`, and the background mail it caused to `background`. */
  const counted = async <T>(stage: 'password' | 'secondFactor' | 'resume', request: () => Promise<T>): Promise<T> => {
    const { result, trips } = counting ? await counting.within(request) : { result: await request(), trips: 0 };
    counts[stage] += trips;
    const settling = count();
    const asked = (await counting?.settle()) ?? 0;
    counts.background += count() - settling - asked;
    return result;
  };
  let step = await counted('password', async () =>
    answer<StepAnswer>(await login.browser.request('POST', `${API}/auth/login`, { email: login.email, password: login.encryptedPassword })),
  );
  if (login.totp) {
    if (step.challenge !== 'SOFTWARE_TOKEN_MFA') throw new Error(`expected the authenticator app's step, got ${JSON.stringify(step)}`);
    const code = currentTotpCode(login.totp);
    step = await counted('secondFactor', async () => answer<StepAnswer>(await login.browser.request('POST', `${API}/auth/mfa/verification`, { code })));
  }
  if (!step.redirect_to) throw new Error(`the login did not finish: ${JSON.stringify(step)}`);
  let location = step.redirect_to;
  await counted('resume', async () => {
    for (let hop = 0; hop < 5 && !location.startsWith(redirectUri); hop += 1) {
      const response = await login.browser.request('GET', location);
      if (!response.headers.location) throw new Error(`expected a redirect from ${location}, got ${response.statusCode}`);
      location = new URL(String(response.headers.location), 'http://localhost:8080').href;
    }
  });
  const callback = new URL(location);
  if (!callback.searchParams.get('code')) throw new Error(`no code in ${location}`);
  return { ...counts, callback };
}
