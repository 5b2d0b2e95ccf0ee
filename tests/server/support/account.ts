import type { LightMyRequestResponse } from 'fastify';
import { CompactEncrypt, importJWK, type JWK } from 'jose';
import { ACCOUNT_CLIENT_ID, accountPageUrl } from '../../../server/account/account-client.ts';
import { totpCodeAt } from '../../../server/mfa/totp.ts';
import { followToClient } from './client-return.ts';
import { API, answer, logIn, setUpTotp, type StepAnswer } from './mfa.ts';
import { exchangeCode, TestBrowser } from './sign-in.ts';
import { TEST_PUBLIC_URL, type TestApp } from './test-app.ts';

/** The account page as a client: its id and the redirect URI it signs in with. */
export const ACCOUNT_CLIENT = { clientId: ACCOUNT_CLIENT_ID, redirectUri: accountPageUrl({ publicUrl: TEST_PUBLIC_URL }) };

/** One signed-in account page: the browser (its provider session) and the access token the page holds. */
export interface AccountPage {
  browser: TestBrowser;
  token: string;
  /** The authenticator secret the user signs in with. */
  secret: string;
  call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<LightMyRequestResponse>;
}

/**
 * Signs in to the account page as the browser would: code + PKCE, with the second factor MFA_REQUIRED asks for (an
 * authenticator app set up on first sign-in, or its code later). `tick` moves the fake clock on a TOTP step.
 */
export async function signInToAccountPage(
  server: TestApp,
  user: { email: string; password: string; secret?: string },
  tick: () => number,
  ip = '127.0.0.1',
  userAgent?: string,
): Promise<AccountPage> {
  const browser = new TestBrowser(server.app, ip);
  if (userAgent) browser.userAgent = userAgent;
  const { answer: first, codeVerifier } = await logIn(browser, { ...ACCOUNT_CLIENT, ...user });
  let secret = user.secret;
  let done: StepAnswer;
  if (first.challenge === 'MFA_SETUP') {
    const setup = await setUpTotp(browser, tick());
    secret = setup.secret;
    done = setup.done;
  } else if (first.challenge === 'SOFTWARE_TOKEN_MFA' && secret) {
    done = answer<StepAnswer>(await browser.request('POST', `${API}/auth/mfa/verification`, { code: totpCodeAt(secret, tick()) }));
  } else {
    throw new Error(`unexpected sign-in answer ${JSON.stringify(first)}`);
  }
  if (!secret || !done.redirect_to) throw new Error(`the sign-in did not finish: ${JSON.stringify(done)}`);
  const callback = await followToClient(browser, done.redirect_to, ACCOUNT_CLIENT.redirectUri);
  const tokens = await exchangeCode(server.app, ACCOUNT_CLIENT, callback, codeVerifier);
  if (tokens.statusCode !== 200) throw new Error(`token endpoint answered ${tokens.statusCode}: ${tokens.body}`);
  const token = tokens.json<{ access_token: string }>().access_token;
  const call = (method: 'GET' | 'POST', path: string, body?: unknown) =>
    server.app.inject({
      method,
      url: `${API}${path}`,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
  return { browser, token, secret, call };
}

/** The account page's password-change body: both passwords sealed with the one nonce of a single key fetch, as the web app sends them. */
export async function sealPasswordChange(browser: TestBrowser, current: string, next: string): Promise<{ currentPassword: string; newPassword: string }> {
  const key = (await browser.request('GET', `${API}/crypto/rsa-public-key`)).json<{ kid: string; jwk: JWK; nonce: string }>();
  const publicKey = await importJWK(key.jwk, 'RSA-OAEP-256');
  const seal = (value: string) =>
    new CompactEncrypt(new TextEncoder().encode(JSON.stringify({ v: value, n: key.nonce }))).setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: key.kid }).encrypt(publicKey);
  return { currentPassword: await seal(current), newPassword: await seal(next) };
}
