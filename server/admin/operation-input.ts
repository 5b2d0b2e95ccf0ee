/**
 * What the admin operations take, and the checks of it that need no database: the CLI answers a mistyped id, URI,
 * address or password with these before it opens a database or loads the modules that work on one.
 */
import { LIMITS } from '../limits.ts';
import { ID_TOKEN_SIGNING_ALGS } from '../oidc/signing-algs.ts';
import type { ClientSecurityInput } from './client-security-input.ts';
import { OperationError } from './operation-error.ts';

/** What `client add` takes. */
export interface AddClientInput extends ClientSecurityInput {
  clientId: string;
  redirectUris: string[];
  name?: string;
  isPublic: boolean;
  /** Where the app starts its own sign-in (OpenID Connect's initiate_login_uri); invitations land there. */
  initiateLoginUri?: string;
  /** Give the app a refresh token with every sign-in (rotated on each use), not only when it asks for offline_access. */
  refreshTokens?: boolean;
  /** Where the app may send the browser after signing out (RP-Initiated Logout), matched exactly. */
  postLogoutRedirectUris?: string[];
  /** Where the app is told, with a signed logout token, that a session ended (Back-Channel Logout). */
  backchannelLogoutUri?: string;
  /** How the app's ID tokens are signed: RS256 (the default), PS256 or ES256. */
  idTokenAlg?: string;
}

const CLIENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{1,99}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Refuses a redirect (or other client) URI the provider must never send a browser to. */
export function checkRedirectUri(uri: string): void {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new OperationError(`--redirect-uri "${uri}" is not an absolute URL`);
  }
  if (url.hash) throw new OperationError(`--redirect-uri "${uri}" must not contain a fragment (#...)`);
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol === 'http:' && !loopback) throw new OperationError(`--redirect-uri "${uri}" must use https (http is allowed only for localhost)`);
  if (url.protocol === 'javascript:' || url.protocol === 'data:') throw new OperationError(`--redirect-uri "${uri}" uses a forbidden scheme`);
}

/**
 * Refuses a `client add` whose own words are wrong (the id, a URI, the ID-token algorithm): the checks that need no
 * database, so the CLI can answer them before it opens one.
 */
export function checkClientInput(input: AddClientInput): void {
  if (!CLIENT_ID.test(input.clientId)) throw new OperationError('--client-id must be 2-100 letters, digits, dots, dashes or underscores');
  // A service app (client_credentials) or a resource server signs nobody in, so it needs no redirect URI.
  const signsPeopleIn = input.serviceScopes === undefined && input.resourceServer === undefined;
  if (input.redirectUris.length === 0 && signsPeopleIn) throw new OperationError('at least one --redirect-uri is required');
  input.redirectUris.forEach(checkRedirectUri);
  if (input.initiateLoginUri !== undefined) checkRedirectUri(input.initiateLoginUri);
  input.postLogoutRedirectUris?.forEach(checkRedirectUri);
  if (input.backchannelLogoutUri !== undefined) checkRedirectUri(input.backchannelLogoutUri);
  if (input.idTokenAlg !== undefined && !(ID_TOKEN_SIGNING_ALGS as readonly string[]).includes(input.idTokenAlg)) {
    throw new OperationError(`--id-token-alg must be one of ${ID_TOKEN_SIGNING_ALGS.join(', ')} (got "${input.idTokenAlg}")`);
  }
}

/** What `user add` takes. */
export interface AddUserInput {
  email: string;
  /** Required unless `preRegistered`. */
  password?: string;
  firstName?: string;
  lastName?: string;
  /** The user must replace this password at the next sign-in. */
  temporary?: boolean;
  /** No password yet: the user completes the account (names, password) after proving the address by registering. */
  preRegistered?: boolean;
}

/** Refuses a `user add` whose own words are wrong (the address, the password): checks that need no database. */
export function checkUserInput(input: AddUserInput): void {
  if (!EMAIL.test(input.email.trim()) || input.email.length > 254) throw new OperationError(`--email "${input.email}" is not a valid email address`);
  if (input.preRegistered) {
    if (input.password !== undefined) throw new OperationError('a pre-registered user has no password until they complete registration');
    return;
  }
  const password = input.password ?? '';
  if (password.length === 0) throw new OperationError('--password must not be empty');
  if (password.length > LIMITS.PASSWORD_MAX_LENGTH) throw new OperationError(`--password must be at most ${LIMITS.PASSWORD_MAX_LENGTH} characters`);
}
