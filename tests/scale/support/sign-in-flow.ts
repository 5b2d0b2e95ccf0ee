import { calculatePKCECodeChallenge, randomPKCECodeVerifier } from 'openid-client';
import { totpCodeAt } from '../../../server/mfa/totp.ts';
import { httpRequest, type HttpBrowser } from './http-client.ts';

const API = '/api/sso/v3';

/** The confidential demo client, as a client app holds it. */
export interface HttpClientApp {
  clientId: string;
  redirectUri: string;
  secret: string;
}

/** What a finished sign-in gave the client app. */
export interface SignedIn {
  accessToken: string;
  idToken: string;
  refreshToken: string | undefined;
  /** The user's authenticator secret (set up during this sign-in when the user had none). */
  totpSecret: string;
}

function expectStatus(answer: { status: number; body: string }, step: string, status = 200): void {
  if (answer.status !== status) throw new Error(`${step} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
}

/**
 * A whole sign-in over HTTP, as the web app and a client app make it: authorize, password, second factor (set up
 * with an authenticator app when the user has none), back to the app, code for tokens at `tokenBase`.
 */
export async function signInOverHttp(
  browser: HttpBrowser,
  input: { client: HttpClientApp; email: string; password: string; totpSecret?: string; tokenBase?: string },
): Promise<SignedIn> {
  const verifier = randomPKCECodeVerifier();
  const query = new URLSearchParams({
    client_id: input.client.clientId,
    redirect_uri: input.client.redirectUri,
    state: 'scale-state',
    code_challenge: await calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  const authorize = await browser.request('GET', `${API}/authorize?${query}`);
  expectStatus(authorize, 'authorize');
  const toLogin = await browser.request('GET', authorize.json<{ redirect_to: string }>().redirect_to);
  if (!String(toLogin.headers.location ?? '').includes('interaction=')) throw new Error(`no interaction: ${toLogin.status} ${toLogin.headers.location}`);
  const login = await browser.request('POST', `${API}/auth/login`, { email: input.email, password: await browser.encrypt(input.password) });
  expectStatus(login, 'login');
  const challenge = login.json<{ challenge?: string }>().challenge;
  let totpSecret = input.totpSecret ?? '';
  let done;
  if (challenge === 'MFA_SETUP') {
    const setup = await browser.request('POST', `${API}/auth/2fa/initialization`, { type: 'totp' });
    expectStatus(setup, '2fa/initialization');
    totpSecret = String(setup.json<{ parameters: { secret: string } }>().parameters.secret);
    done = await browser.request('POST', `${API}/auth/2fa/verification`, { code: totpCodeAt(totpSecret, Date.now()) });
    expectStatus(done, '2fa/verification');
    // A first factor set up at sign-in is followed by the account's new recovery codes, shown once.
    if (done.json<{ challenge?: string }>().challenge === 'SAVE_RECOVERY_CODES') {
      done = await browser.request('POST', `${API}/auth/mfa/recovery-codes`, {});
      expectStatus(done, 'mfa/recovery-codes');
    }
  } else if (challenge === 'SOFTWARE_TOKEN_MFA') {
    done = await browser.request('POST', `${API}/auth/mfa/verification`, { code: totpCodeAt(totpSecret, Date.now()) });
    expectStatus(done, 'mfa/verification');
  } else {
    throw new Error(`unexpected challenge after the password: ${login.body.slice(0, 200)}`);
  }
  let location = done.json<{ redirect_to: string }>().redirect_to;
  for (let hop = 0; hop < 6 && !location.startsWith(input.client.redirectUri); hop += 1) {
    const next = await browser.request('GET', location);
    if (!next.headers.location) throw new Error(`expected a redirect from ${location}, got ${next.status}: ${next.body.slice(0, 200)}`);
    location = new URL(String(next.headers.location), browser.base).href;
  }
  const code = new URL(location).searchParams.get('code');
  if (!code) throw new Error(`no code in ${location}`);
  const token = await httpRequest(`${input.tokenBase ?? browser.base}/oidc/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${input.client.clientId}:${input.client.secret}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: input.client.redirectUri, code_verifier: verifier }).toString(),
  });
  expectStatus(token, 'token');
  const tokens = token.json<{ access_token: string; id_token: string; refresh_token?: string }>();
  return { accessToken: tokens.access_token, idToken: tokens.id_token, refreshToken: tokens.refresh_token, totpSecret };
}
