import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchTotpStep, totpCodeAt, totpIssuer, totpUri, type TotpAlgorithm } from '../../server/mfa/totp.ts';
import { attemptTotpStep, createPendingFactor } from '../../server/store/mfa-factors.ts';
import { followToClient, whatTheAppSees } from './support/client-return.ts';
import { testBackends } from './support/databases.ts';
import { capturingMailer, fakeClock } from './support/fakes.ts';
import { userWithTotp } from './support/signed-in.ts';
import { API, answer, logIn, setUpTotp, type StepAnswer } from './support/mfa.ts';
import { TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// RFC 6238 appendix B: the seeds are the ASCII strings "1234567890" repeated to the hash's key length.
const SEEDS: Record<TotpAlgorithm, string> = {
  SHA1: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ',
  SHA256: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZA',
  SHA512: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNA',
};
const APPENDIX_B: [number, string, TotpAlgorithm][] = [
  [59, '94287082', 'SHA1'], [59, '46119246', 'SHA256'], [59, '90693936', 'SHA512'],
  [1111111109, '07081804', 'SHA1'], [1111111109, '68084774', 'SHA256'], [1111111109, '25091201', 'SHA512'],
  [1111111111, '14050471', 'SHA1'], [1111111111, '67062674', 'SHA256'], [1111111111, '99943326', 'SHA512'],
  [1234567890, '89005924', 'SHA1'], [1234567890, '91819424', 'SHA256'], [1234567890, '93441116', 'SHA512'],
  [2000000000, '69279037', 'SHA1'], [2000000000, '90698825', 'SHA256'], [2000000000, '38618901', 'SHA512'],
  [20000000000, '65353130', 'SHA1'], [20000000000, '77737706', 'SHA256'], [20000000000, '47863826', 'SHA512'],
];

describe('TOTP codes (RFC 6238)', () => {
  it.each(APPENDIX_B)('at %i s gives %s with %s, as appendix B lists', (seconds, expected, algorithm) => {
    expect(totpCodeAt(SEEDS[algorithm], seconds * 1000, { algorithm, digits: 8 })).toBe(expected);
  });

  it.each(APPENDIX_B.filter(([, , algorithm]) => algorithm === 'SHA1'))('gives authenticator apps the last 6 digits at %i s (%s)', (seconds, expected) => {
    expect(totpCodeAt(SEEDS.SHA1, seconds * 1000)).toBe(expected.slice(2));
    expect(matchTotpStep(SEEDS.SHA1, expected.slice(2), seconds * 1000)).toBe(Math.floor(seconds / 30));
  });

  it('accepts the codes of one step either side for clock drift, and no further', () => {
    const now = 1_700_000_000_000;
    expect(matchTotpStep(SEEDS.SHA1, totpCodeAt(SEEDS.SHA1, now - 30_000), now)).toBe(Math.floor(now / 30_000) - 1);
    expect(matchTotpStep(SEEDS.SHA1, totpCodeAt(SEEDS.SHA1, now + 30_000), now)).toBe(Math.floor(now / 30_000) + 1);
    expect(matchTotpStep(SEEDS.SHA1, totpCodeAt(SEEDS.SHA1, now - 90_000), now)).toBeUndefined();
  });

  it('names the product and the client app as issuer, URL-encoded in the otpauth link', () => {
    const issuer = totpIssuer('Dashboard & Reports: EU');
    expect(issuer).toBe('Payments Network – Dashboard & Reports  EU');
    const uri = new URL(totpUri(SEEDS.SHA1, issuer, 'ada@example.com'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('issuer')).toBe(issuer);
    expect(uri.searchParams.get('secret')).toBe(SEEDS.SHA1);
    expect(uri.href).toContain(`otpauth://totp/${encodeURIComponent(issuer)}:${encodeURIComponent('ada@example.com')}?`);
  });
});

describe.each(testBackends().map((backend) => [backend.name, backend] as const))('a used TOTP step on %s', (_name, backend) => {
  it('is claimed by exactly one of 50 parallel submissions, and never again', async () => {
    const db = await backend.open();
    try {
      const user = await db.query<{ id: string }>("insert into users (id, email, email_normalized, first_name, last_name, password_hash) values (gen_random_uuid(), 'r@example.com', 'r@example.com', 'R', 'R', 'x') returning id");
      const factorId = await createPendingFactor(db, { userId: user.rows[0]!.id, kind: 'totp', secretSealed: 'sealed' });
      const rest = { max: 5, lockoutSeconds: 300, forgottenAfter: 86_400 };
      const claimTotpStep = async (step: number) => (await attemptTotpStep(db, factorId, step, new Date(), rest)).claimed;
      const results = await Promise.all(Array.from({ length: 50 }, () => claimTotpStep(56_666_666)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await claimTotpStep(56_666_666)).toBe(false);
      expect(await claimTotpStep(56_666_665)).toBe(false);
      expect(await claimTotpStep(56_666_667)).toBe(true);
    } finally {
      await db.close();
    }
  });
});

describe('signing in with an authenticator app', () => {
  const clock = fakeClock(Date.now());
  const mail = capturingMailer();
  let server: TestApp;
  let secret: string;
  beforeAll(async () => {
    server = await startTestApp({ clock: clock.now, mailer: mail.mailer });
    const browser = new TestBrowser(server.app);
    const { answer: first } = await logIn(browser, { ...server.publicClient, email: server.user.email, password: server.user.password });
    expect(first.challenge).toBe('MFA_SETUP');
    ({ secret } = await setUpTotp(browser, clock.now()));
  });
  afterAll(async () => {
    await server.close();
  });

  /** A new browser signed in with the password, waiting for the app's code. */
  async function atTotpStep(): Promise<{ browser: TestBrowser; codeVerifier: string }> {
    const browser = new TestBrowser(server.app);
    const { answer: login, codeVerifier } = await logIn(browser, { ...server.publicClient, email: server.user.email, password: server.user.password });
    expect(login.challenge).toBe('SOFTWARE_TOKEN_MFA');
    return { browser, codeVerifier };
  }

  it('asks for the code and lets the right one through to the app, with amr naming password and one-time code', async () => {
    clock.advance(60);
    const { browser, codeVerifier } = await atTotpStep();
    const done = answer<StepAnswer>(await browser.request('POST', `${API}/auth/mfa/verification`, { code: totpCodeAt(secret, clock.now()) }));
    const callback = await followToClient(browser, String(done.redirect_to), server.publicClient.redirectUri);
    const { idToken } = await whatTheAppSees(server.app, server.publicClient, callback, codeVerifier);
    expect(idToken.amr).toEqual(['pwd', 'mfa', 'otp']);
  });

  it('refuses a code whose time step was already used, in another sign-in', async () => {
    clock.advance(60);
    const code = totpCodeAt(secret, clock.now());
    const first = await atTotpStep();
    expect((await first.browser.request('POST', `${API}/auth/mfa/verification`, { code })).statusCode).toBe(200);
    const second = await atTotpStep();
    const replay = await second.browser.request('POST', `${API}/auth/mfa/verification`, { code });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error_code).toBe('code.invalid');
  });

  it('lets exactly one of 50 sign-ins submitting the same code at once through', async () => {
    clock.advance(60);
    const code = totpCodeAt(secret, clock.now());
    const browsers = [];
    for (let index = 0; index < 50; index += 1) browsers.push((await atTotpStep()).browser);
    const results = await Promise.all(browsers.map((browser) => browser.request('POST', `${API}/auth/mfa/verification`, { code })));
    expect(results.filter((result) => result.statusCode === 200)).toHaveLength(1);
    expect(new Set(results.filter((result) => result.statusCode !== 200).map((result) => result.json().error_code))).toEqual(new Set(['code.invalid']));
  });

  it('rests the app factor after 5 wrong codes, even for the right one, until the rest is over', async () => {
    clock.advance(60);
    const { browser } = await atTotpStep();
    const wrong = totpCodeAt(secret, clock.now() + 10 * 60_000);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await browser.request('POST', `${API}/auth/mfa/verification`, { code: wrong })).json().error_code).toBe('code.invalid');
    }
    const resting = await browser.request('POST', `${API}/auth/mfa/verification`, { code: totpCodeAt(secret, clock.now()) });
    expect(resting.statusCode).toBe(429);
    expect(resting.json().error_code).toBe('mfa.totp_resting');
    clock.advance(15 * 60);
    const again = await atTotpStep();
    expect((await again.browser.request('POST', `${API}/auth/mfa/verification`, { code: totpCodeAt(secret, clock.now()) })).statusCode).toBe(200);
  });

  it('escalates: after the first rest each further wrong code rests the factor again, and the owner is mailed once, when the rest starts', async () => {
    const email = 'escalate@example.com';
    const owner = await userWithTotp(server, email, clock.now());
    const atStep = async () => {
      const browser = new TestBrowser(server.app);
      const { answer: login } = await logIn(browser, { ...server.publicClient, email, password: owner.user.password });
      expect(login.challenge).toBe('SOFTWARE_TOKEN_MFA');
      return browser;
    };
    clock.advance(60);
    const guesser = await atStep();
    const wrong = () => totpCodeAt(owner.user.secret, clock.now() + 10 * 60_000);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await guesser.request('POST', `${API}/auth/mfa/verification`, { code: wrong() })).json().error_code).toBe('code.invalid');
    }
    await expect.poll(() => mail.to(email).filter((message) => message.subject === 'Several wrong authenticator codes on your account').length).toBe(1);
    // A new round of five does not start after the rest: the next wrong code rests the factor at once.
    clock.advance(15 * 60 + 1);
    const later = await atStep();
    expect((await later.request('POST', `${API}/auth/mfa/verification`, { code: wrong() })).json().error_code).toBe('code.invalid');
    const resting = await later.request('POST', `${API}/auth/mfa/verification`, { code: totpCodeAt(owner.user.secret, clock.now()) });
    expect(resting.statusCode).toBe(429);
    expect(resting.json().error_code).toBe('mfa.totp_resting');
    const events = await server.db.query<{ kind: string }>(
      "select kind from security_events e join users u on u.id = e.user_id where u.email = $1 and kind in ('sign_in_failed', 'lockout_started')",
      [email],
    );
    expect(events.rows.filter((row) => row.kind === 'lockout_started')).toHaveLength(1);
    expect(events.rows.filter((row) => row.kind === 'sign_in_failed').length).toBe(6);
    expect(mail.to(email).filter((message) => message.subject === 'Several wrong authenticator codes on your account')).toHaveLength(1);
  });

  it('answers a wrong app code with advice the user can follow: the current code and the phone clock, never "ask for a new one"', async () => {
    clock.advance(60);
    const { browser } = await atTotpStep();
    const wrong = await browser.request('POST', `${API}/auth/mfa/verification`, { code: totpCodeAt(secret, clock.now() + 10 * 60_000) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error_code: 'code.invalid', error_params: { reason: 'mfaTotp.codeInvalid' } });
    expect(wrong.json().error_message).toContain('authenticator app shows now');
    expect(wrong.json().error_message).not.toContain('new one');
  });

  it('never lets a password alone add a factor to an account that has one', async () => {
    const { browser } = await atTotpStep();
    const sneaky = await browser.request('POST', `${API}/auth/2fa/initialization`, { type: 'email' });
    expect(sneaky.statusCode).toBe(409);
    expect(sneaky.json().error_code).toBe('step.out_of_order');
  });
});
