/**
 * How the account page signs in: as a public client of our own provider, with authorization code + PKCE, exactly as
 * any app does. The access token lives in this tab's sessionStorage; a refused token starts the sign-in again.
 */
import { ACCOUNT_PAGE, API_PREFIX } from '../../contract/product.ts';

const TOKEN_KEY = 'sso.account.token';
const PENDING_KEY = 'sso.account.pending';
const SCOPE = 'openid email profile';
/** The provider's end_session endpoint (beside its token endpoint, /oidc/token). */
const END_SESSION_PATH = '/oidc/session/end';

interface StoredToken {
  accessToken: string;
  expiresAt: number;
  /** The ID token, sent back as id_token_hint when signing out at the provider. */
  idToken?: string;
}

interface PendingSignIn {
  state: string;
  verifier: string;
}

const redirectUri = () => `${window.location.origin}${ACCOUNT_PAGE.path}`;

function base64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const randomValue = () => base64Url(crypto.getRandomValues(new Uint8Array(32)));

function readJson<T>(key: string): T | undefined {
  try {
    const raw = sessionStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What the account page's address may ask of its sign-in (a step with no client app hands over here, web app's
 * `withoutClient`): the register screen instead of login, and the email typed on the screen before.
 */
function askedOfSignIn(): Record<string, string> {
  const query = new URLSearchParams(window.location.search);
  const asked: Record<string, string> = {};
  if (query.get('prompt') === 'create') asked.prompt = 'create';
  const username = query.get('username');
  if (username) asked.username = username;
  return asked;
}

/**
 * Where this page is already going: to the login screen (a sign-in under way) or to the provider's end-session screen.
 * Once set, nothing sends it elsewhere: the page's parallel calls would otherwise each start a sign-in with its own
 * state (each replacing the last's), or send a person who chose "Sign out" back to the login screen instead.
 */
let leaving: 'sign-in' | 'sign-out' | undefined;

/** The code exchange or kept token every call of this page shares, so the provider's code is redeemed once. */
let tokenUnderWay: Promise<string> | undefined;

const staysHere = () => new Promise<never>(() => undefined);

/** Sends the browser to the login screen for the account page, with a fresh state and PKCE verifier. */
export async function startSignIn(): Promise<never> {
  if (leaving) return staysHere();
  leaving = 'sign-in';
  const pending: PendingSignIn = { state: randomValue(), verifier: randomValue() };
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  sessionStorage.removeItem(TOKEN_KEY);
  const challenge = base64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(pending.verifier))));
  const query = new URLSearchParams({
    client_id: ACCOUNT_PAGE.clientId,
    redirect_uri: redirectUri(),
    response_type: 'code',
    scope: SCOPE,
    state: pending.state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...askedOfSignIn(),
  });
  window.location.assign(`/auth/login?${query}`);
  return staysHere();
}

/** Redeems the code the provider sent back (checking the state), keeps the token and tidies the address. */
async function finishSignIn(code: string, state: string): Promise<StoredToken | undefined> {
  const pending = readJson<PendingSignIn>(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  window.history.replaceState(null, '', ACCOUNT_PAGE.path);
  if (!pending || pending.state !== state) return undefined;
  const response = await fetch('/oidc/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri(), client_id: ACCOUNT_PAGE.clientId, code_verifier: pending.verifier }),
  });
  if (!response.ok) return undefined;
  const body = (await response.json()) as { access_token?: string; expires_in?: number; id_token?: string };
  if (!body.access_token) return undefined;
  const token: StoredToken = { accessToken: body.access_token, expiresAt: Date.now() + (body.expires_in ?? 0) * 1000, idToken: body.id_token };
  sessionStorage.setItem(TOKEN_KEY, JSON.stringify(token));
  return token;
}

/**
 * The account page's access token: from the provider's answer in the address, or kept from before; signs in when there
 * is none. Calls made while the code is being redeemed wait for that one answer instead of finding no token yet and
 * starting another sign-in (which left the page looping between the login screen and ?code=… while redemptions raced).
 */
export function accessToken(): Promise<string> {
  tokenUnderWay ??= currentToken().finally(() => {
    tokenUnderWay = undefined;
  });
  return tokenUnderWay;
}

async function currentToken(): Promise<string> {
  const query = new URLSearchParams(window.location.search);
  const code = query.get('code');
  const state = query.get('state');
  const token = code && state ? await finishSignIn(code, state) : readJson<StoredToken>(TOKEN_KEY);
  if (token && token.expiresAt > Date.now() + 5000) return token.accessToken;
  return startSignIn();
}

/**
 * Signs out at the provider (OpenID Connect RP-Initiated Logout): forgets this tab's tokens and opens the provider's
 * end-session screen, which comes back to the account page; with the single sign-on session ended, that asks for the
 * password again.
 */
export function signOut(): void {
  leaving = 'sign-out';
  const token = readJson<StoredToken>(TOKEN_KEY);
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  const query = new URLSearchParams({ client_id: ACCOUNT_PAGE.clientId, post_logout_redirect_uri: redirectUri() });
  if (token?.idToken) query.set('id_token_hint', token.idToken);
  window.location.assign(`${END_SESSION_PATH}?${query}`);
}

/** A refused account call: the server's code and its words. */
export class AccountCallError extends Error {
  override readonly name = 'AccountCallError';
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
    /** The catalogue key of the precise problem (a password rule, a field's rule), when the server names one. */
    readonly reason?: string,
  ) {
    super(message);
  }
}

/** Calls the account API with the page's token; a signed-out answer starts the sign-in again. */
export async function accountCall<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const token = await accessToken();
  const response = await fetch(`${API_PREFIX}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (response.ok) return answer as T;
  const code = typeof answer.error_code === 'string' ? answer.error_code : 'server.error';
  if (code === 'account.signed_out') return startSignIn();
  const params = answer.error_params as { reason?: unknown } | undefined;
  const reason = typeof params?.reason === 'string' ? params.reason : undefined;
  throw new AccountCallError(typeof answer.error_message === 'string' ? answer.error_message : code, code, response.status, reason);
}
