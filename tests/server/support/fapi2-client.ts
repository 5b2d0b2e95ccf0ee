import * as oauth from 'oauth4webapi';
import { addClient } from '../../../server/admin/operations.ts';
import { allowWhatTheAppAsks } from './consent.ts';
import { injectFetch } from './inject-fetch.ts';
import { answer, type StepAnswer } from './mfa.ts';
import { TestBrowser } from './sign-in.ts';
import { TEST_PUBLIC_URL, type TestApp } from './test-app.ts';

const API = '/api/sso/v3';

/** A `fapi2` client app driven with oauth4webapi: its key pair for private_key_jwt and another for DPoP. */
export interface Fapi2App {
  as: oauth.AuthorizationServer;
  client: oauth.Client;
  auth: oauth.ClientAuth;
  /** Absent to push a request without a DPoP proof. */
  dpop: oauth.DPoPHandle | undefined;
  dpopKeys: CryptoKeyPair;
  redirectUri: string;
  /** The options every oauth4webapi call takes: requests go into the server under test. */
  options: { [oauth.customFetch]: typeof fetch; [oauth.allowInsecureRequests]: true };
}

/** A JWKS of one public key, as the operator registers it with `--jwks`. */
export async function publicJwks(keys: CryptoKeyPair, alg: string, kid: string): Promise<string> {
  const jwk = await crypto.subtle.exportKey('jwk', keys.publicKey);
  return JSON.stringify({ keys: [{ ...jwk, alg, kid, use: 'sig' }] });
}

/** Registers `clientId` with the fapi2 profile and an ES256 key, and discovers the provider as the app would. */
export async function fapi2App(server: TestApp, clientId: string): Promise<Fapi2App> {
  const signing = await oauth.generateKeyPair('ES256', { extractable: true });
  const redirectUri = `${TEST_PUBLIC_URL}/fapi/${clientId}/callback`;
  await addClient(
    { db: server.db, box: server.context.box },
    { clientId, redirectUris: [redirectUri], isPublic: false, profile: 'fapi2', jwks: await publicJwks(signing, 'ES256', 'app-key'), refreshTokens: true },
  );
  const options = { [oauth.customFetch]: injectFetch(server) as typeof fetch, [oauth.allowInsecureRequests]: true } as const;
  const issuer = new URL(TEST_PUBLIC_URL);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, options));
  const client: oauth.Client = { client_id: clientId };
  const dpopKeys = await oauth.generateKeyPair('ES256');
  return { as, client, auth: oauth.PrivateKeyJwt({ key: signing.privateKey, kid: 'app-key' }), dpop: oauth.DPoP(client, dpopKeys), dpopKeys, redirectUri, options };
}

/** Pushes an authorization request (PAR) with PKCE; returns what the browser opens and the verifier. */
export async function pushRequest(app: Fapi2App, extra: Record<string, string> = {}): Promise<{ authorizationUrl: URL; codeVerifier: string; state: string }> {
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const params = new URLSearchParams({
    redirect_uri: app.redirectUri,
    response_type: 'code',
    scope: 'openid email profile',
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    ...extra,
  });
  const response = await oauth.pushedAuthorizationRequest(app.as, app.client, app.auth, params, { ...app.options, ...(app.dpop ? { DPoP: app.dpop } : {}) });
  const pushed = await oauth.processPushedAuthorizationResponse(app.as, app.client, response);
  const authorizationUrl = new URL(app.as.authorization_endpoint!);
  authorizationUrl.searchParams.set('client_id', app.client.client_id);
  authorizationUrl.searchParams.set('request_uri', pushed.request_uri);
  return { authorizationUrl, codeVerifier, state };
}

/** A browser opens `authorizationUrl`, signs in as the demo user (no second factor) and lands on the app's callback. */
export async function signInAt(server: TestApp, authorizationUrl: URL, redirectUri: string): Promise<URL> {
  const browser = new TestBrowser(server.app);
  const provider = await browser.request('GET', authorizationUrl.href);
  const loginScreen = new URL(String(provider.headers.location), TEST_PUBLIC_URL);
  const interaction = loginScreen.searchParams.get('interaction');
  if (!interaction) throw new Error(`the provider did not start a sign-in: ${provider.statusCode} ${provider.headers.location ?? provider.body.slice(0, 300)}`);
  await browser.request('GET', `${API}/authorize?interaction=${interaction}`);
  const login = await browser.request('POST', `${API}/auth/login`, { email: server.user.email, password: await browser.encrypt(server.user.password) });
  let location = String((await allowWhatTheAppAsks(browser, answer<StepAnswer>(login))).redirect_to);
  for (let hop = 0; hop < 5 && !location.startsWith(redirectUri); hop += 1) {
    const response = await browser.request('GET', location);
    if (!response.headers.location) throw new Error(`expected a redirect from ${location}, got ${response.statusCode}`);
    location = new URL(String(response.headers.location), TEST_PUBLIC_URL).href;
  }
  return new URL(location);
}
