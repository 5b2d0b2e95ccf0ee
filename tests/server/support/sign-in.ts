import { CompactEncrypt, importJWK, type JWK } from 'jose';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { calculatePKCECodeChallenge, randomPKCECodeVerifier } from 'openid-client';
import { CookieJar } from './cookie-jar.ts';

const API = '/api/sso/v3';

/** A browser's view of the server: one cookie jar, requests through `inject`. */
export class TestBrowser {
  readonly jar = new CookieJar();
  /** The User-Agent header the browser sends, when a test sets one. */
  userAgent: string | undefined;

  /** `ip` is the client address the server sees (inject only labels the request; nothing is sent anywhere). */
  constructor(
    private readonly app: FastifyInstance,
    private readonly ip = '127.0.0.1',
  ) {}

  /** Sends a request as the browser would, keeping cookies. */
  async request(method: 'GET' | 'POST', url: string, body?: unknown): Promise<LightMyRequestResponse> {
    const target = new URL(url, 'http://localhost:8080');
    const response = await this.app.inject({
      method,
      url: `${target.pathname}${target.search}`,
      remoteAddress: this.ip,
      headers: { cookie: this.jar.header(target.pathname), ...(this.userAgent ? { 'user-agent': this.userAgent } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    this.jar.store(response.headers['set-cookie']);
    return response;
  }

  /** Encrypts `value` to the server's credential key with a fresh nonce, as the web app does. */
  async encrypt(value: string): Promise<string> {
    const key = (await this.request('GET', `${API}/crypto/rsa-public-key`)).json<{ kid: string; jwk: JWK; nonce: string }>();
    const publicKey = await importJWK(key.jwk, 'RSA-OAEP-256');
    return new CompactEncrypt(new TextEncoder().encode(JSON.stringify({ v: value, n: key.nonce })))
      .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: key.kid })
      .encrypt(publicKey);
  }
}

/** What a client app would put on its link to /auth/login. */
export interface LoginLink {
  clientId: string;
  redirectUri: string;
  state?: string;
  codeVerifier?: string;
  /** The scopes asked for; the server's default when absent. */
  scope?: string;
  /** Further authorization parameters (prompt, max_age). */
  extraParams?: Record<string, string>;
}

/** Follows a direct link up to the login screen: authorize → oidc-provider → back with a transaction. Returns the interaction uid. */
export async function openLoginScreen(browser: TestBrowser, link: LoginLink): Promise<{ interaction: string; codeVerifier: string }> {
  const codeVerifier = link.codeVerifier ?? randomPKCECodeVerifier();
  const query = new URLSearchParams({
    client_id: link.clientId,
    redirect_uri: link.redirectUri,
    state: link.state ?? 'state-123',
    code_challenge: await calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  });
  if (link.scope) query.set('scope', link.scope);
  for (const [name, value] of Object.entries(link.extraParams ?? {})) query.set(name, value);
  const authorize = await browser.request('GET', `${API}/authorize?${query}`);
  if (authorize.statusCode !== 200) throw new Error(`authorize answered ${authorize.statusCode}: ${authorize.body}`);
  const provider = await browser.request('GET', authorize.json<{ redirect_to: string }>().redirect_to);
  const location = new URL(String(provider.headers.location), 'http://localhost:8080');
  const interaction = location.searchParams.get('interaction');
  if (!interaction) throw new Error(`oidc-provider did not start an interaction: ${provider.statusCode} ${provider.headers.location}`);
  return { interaction, codeVerifier };
}

/** Submits the login step with an encrypted password. */
export async function submitLogin(browser: TestBrowser, email: string, password: string): Promise<LightMyRequestResponse> {
  return browser.request('POST', `${API}/auth/login`, { email, password: await browser.encrypt(password) });
}

/** The whole sign-in up to the client's redirect: returns the redirect URL carrying code and state. */
export async function signIn(browser: TestBrowser, link: LoginLink & { email: string; password: string }): Promise<{ callback: URL; codeVerifier: string }> {
  const { codeVerifier } = await openLoginScreen(browser, link);
  const login = await submitLogin(browser, link.email, link.password);
  if (login.statusCode !== 200) throw new Error(`login answered ${login.statusCode}: ${login.body}`);
  let location = login.json<{ redirect_to: string }>().redirect_to;
  for (let hop = 0; hop < 5 && !location.startsWith(link.redirectUri); hop += 1) {
    const response = await browser.request('GET', location);
    if (!response.headers.location) throw new Error(`expected a redirect from ${location}, got ${response.statusCode}: ${response.body.slice(0, 300)}`);
    location = new URL(String(response.headers.location), 'http://localhost:8080').href;
  }
  return { callback: new URL(location), codeVerifier };
}

/** Exchanges the code in `callback` at the token endpoint as a public client would (PKCE, no secret). */
export function exchangeCode(
  app: FastifyInstance,
  client: { clientId: string; redirectUri: string },
  callback: URL,
  codeVerifier: string,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/oidc/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code') ?? '',
      redirect_uri: client.redirectUri,
      client_id: client.clientId,
      code_verifier: codeVerifier,
    }).toString(),
  });
}
