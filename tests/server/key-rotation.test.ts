import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotateKeys } from '../../server/admin/operations.ts';
import { totpCodeAt } from '../../server/mfa/totp.ts';
import { followToClient } from './support/client-return.ts';
import { fakeClock } from './support/fakes.ts';
import { injectFetch } from './support/inject-fetch.ts';
import { API, answer, logIn, setUpTotp, type StepAnswer } from './support/mfa.ts';
import { TestBrowser } from './support/sign-in.ts';
import { startTestApp, TEST_PUBLIC_URL, type TestApp } from './support/test-app.ts';

/** Polls `check` every 100 ms until it holds or `seconds` pass; the keys are re-read every second in this test. */
async function eventually(check: () => Promise<boolean>, seconds = 10): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('rotating keys while two server processes share one database (MFA on)', () => {
  const clock = fakeClock(Date.now());
  const env = { KEY_REFRESH_SECONDS: '1' };
  let first: TestApp & { masterKey: Buffer };
  let second: TestApp;
  let totpSecret: string;

  beforeAll(async () => {
    first = await startTestApp({ clock: clock.now, env });
    second = await startTestApp({ clock: clock.now, env, shared: { db: first.db, masterKey: first.masterKey } });
    const browser = new TestBrowser(first.app);
    const { answer: login } = await logIn(browser, { ...first.confidentialClient, email: first.user.email, password: first.user.password });
    expect(login.challenge).toBe('MFA_SETUP');
    ({ secret: totpSecret } = await setUpTotp(browser, clock.now()));
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const configurationOn = (server: TestApp) =>
    oidc.discovery(new URL(TEST_PUBLIC_URL), first.confidentialClient.clientId, { client_secret: first.confidentialClient.secret }, oidc.ClientSecretBasic(first.confidentialClient.secret), {
      [oidc.customFetch]: injectFetch(server),
      execute: [oidc.allowInsecureRequests],
    });
  const jwksOf = async (server: TestApp) => (await server.app.inject({ method: 'GET', url: '/oidc/jwks' })).json<JSONWebKeySet>();
  const kidsOf = async (server: TestApp) => (await jwksOf(server)).keys.map((key) => key.kid);
  const kidOf = (jwt: string) => decodeProtectedHeader(jwt).kid;
  const publishesAll = async (server: TestApp, kids: readonly string[]) => {
    const published = await kidsOf(server);
    return kids.every((kid) => published.includes(kid));
  };

  /** A sign-in through the first process; returns its tokens (with a refresh token: the demo client has the setting). */
  async function signIn() {
    clock.advance(60);
    const configuration = await configurationOn(first);
    const browser = new TestBrowser(first.app);
    const state = oidc.randomState();
    const { answer: login, codeVerifier } = await logIn(browser, { ...first.confidentialClient, state, email: first.user.email, password: first.user.password });
    const done = answer<StepAnswer>(await browser.request('POST', `${API}/auth/mfa/verification`, { code: totpCodeAt(totpSecret, clock.now()) }));
    expect(login.challenge).toBe('SOFTWARE_TOKEN_MFA');
    const callback = await followToClient(browser, String(done.redirect_to), first.confidentialClient.redirectUri);
    return oidc.authorizationCodeGrant(configuration, callback, { pkceCodeVerifier: codeVerifier, expectedState: state });
  }

  it('publishes a rotated signing key on both at once, signs with it on both soon after, and still verifies tokens of the old key', async () => {
    const before = await signIn();
    const oldKid = kidOf(before.id_token!);
    expect(await kidsOf(second)).toEqual(await kidsOf(first));

    const rotated = await rotateKeys(first.context.keys);
    // Both processes publish the new key before either signs with it...
    await eventually(async () => (await Promise.all([first, second].map(async (server) => publishesAll(server, rotated.signing)))).every(Boolean));
    // One new key of every type: RSA (RS256, PS256) and P-256 (ES256).
    const types = (await jwksOf(first)).keys.filter((key) => rotated.signing.includes(key.kid ?? '')).map((key) => key.kty).sort();
    expect(types).toEqual(['EC', 'RSA']);
    expect(kidOf((await oidc.refreshTokenGrant(await configurationOn(second), before.refresh_token!)).id_token!)).toBe(oldKid);

    // ...and once the new key has been published for the refresh interval, both sign with it.
    clock.advance(2);
    const viaFirst = await signIn();
    await eventually(async () => rotated.signing.includes(kidOf(viaFirst.id_token!) ?? '') || rotated.signing.includes(kidOf((await signIn()).id_token!) ?? ''));
    let viaSecond = viaFirst;
    await eventually(async () => {
      const refreshed = await oidc.refreshTokenGrant(await configurationOn(second), viaSecond.refresh_token!);
      viaSecond = refreshed;
      return rotated.signing.includes(kidOf(refreshed.id_token!) ?? '');
    });

    // The token signed before the rotation still verifies against either process's JWKS.
    for (const server of [first, second]) {
      const keys = createLocalJWKSet(await jwksOf(server));
      await expect(jwtVerify(before.id_token!, keys, { issuer: TEST_PUBLIC_URL })).resolves.toBeDefined();
      await expect(jwtVerify(viaSecond.id_token!, keys, { issuer: TEST_PUBLIC_URL })).resolves.toBeDefined();
    }
    // The JWKS never carries a private key.
    expect((await jwksOf(first)).keys.every((key) => !('d' in key))).toBe(true);
  });

  it('retires the old signing key from the JWKS once every token it signed has expired', async () => {
    const kidsNow = await kidsOf(first);
    const rotated = await rotateKeys(first.context.keys);
    await eventually(() => publishesAll(second, rotated.signing));
    clock.advance(2 + 10 * 60 + 1);
    await eventually(async () => {
      const kids = await kidsOf(second);
      return kids.length === rotated.signing.length && (await publishesAll(second, rotated.signing));
    });
    for (const kid of rotated.signing) expect(kidsNow).not.toContain(kid);
  });

  it('hands browsers the rotated credential key on both processes and still accepts the previous one', async () => {
    const key = async (server: TestApp) => (await server.app.inject({ method: 'GET', url: `${API}/crypto/rsa-public-key` })).json<{ kid: string }>().kid;
    const previous = await key(first);
    const rotated = await rotateKeys(first.context.keys);
    expect(await key(first)).toBe(rotated.credentials);
    expect(await key(second)).toBe(rotated.credentials);
    expect(await second.context.keys.credentialPrivateKey(previous)).toBeDefined();
  });
});
