import { revokeAllTrustedDevices } from '../store/trusted-devices.ts';
import { OperationError } from './operation-error.ts';
import { checkResourceServerFree, resolveClientSecurity, type ClientSecurityInput } from './client-security-input.ts';
import { findClientSecurity, setClientSecurity } from '../store/client-security.ts';
import { hashPassword } from '../auth/passwords.ts';
import { LIMITS } from '../limits.ts';
import { randomToken } from '../crypto/hash.ts';
import type { KeyStore } from '../crypto/key-store.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Queryable } from '../db/database.ts';
import { findClientInfo, findClientLogout, setClientIdTokenAlg, setClientLogout, setClientRefreshTokens, upsertClient } from '../store/clients.ts';
import { ID_TOKEN_SIGNING_ALGS } from '../oidc/signing-algs.ts';
import { setClientSignInStart } from '../store/invitations.ts';
import { endSessions, type SessionDeps } from '../auth/sessions.ts';
import { insertPreRegisteredUser } from '../store/registrations.ts';
import { recordSecurityEvent } from '../store/security-events.ts';
import { DuplicateEmailError, insertUser, requirePasswordReset, type User } from '../store/users.ts';

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

/** Registers a client app; a confidential one gets a new secret, returned once and stored only encrypted. */
export async function addClient(
  deps: { db: Queryable; box: SecretBox },
  input: AddClientInput,
): Promise<{ clientId: string; secret: string | undefined; created: boolean }> {
  checkClientInput(input);
  const existing = await findClientInfo(deps.db, input.clientId);
  const current = existing?.isPublic === input.isPublic ? await findClientSecurity(deps.db, input.clientId) : undefined;
  const security = resolveClientSecurity(input, input, current);
  await checkResourceServerFree(deps.db, input.clientId, input.resourceServer);
  // A client that signs its assertions with its own keys has no secret at all.
  const secret = security.authMethod === 'none' || security.authMethod === 'private_key_jwt' ? undefined : randomToken(32);
  await upsertClient(deps.db, deps.box, {
    clientId: input.clientId,
    name: input.name?.trim() || input.clientId,
    redirectUris: [...new Set(input.redirectUris)],
    isPublic: input.isPublic,
    secret,
  });
  await setClientSecurity(deps.db, input.clientId, security);
  if (input.initiateLoginUri !== undefined) await setClientSignInStart(deps.db, input.clientId, input.initiateLoginUri);
  await setClientRefreshTokens(deps.db, input.clientId, input.refreshTokens === true);
  await setClientIdTokenAlg(deps.db, input.clientId, input.idTokenAlg);
  if (input.postLogoutRedirectUris !== undefined || input.backchannelLogoutUri !== undefined) {
    const current = await findClientLogout(deps.db, input.clientId);
    await setClientLogout(deps.db, input.clientId, {
      postLogoutRedirectUris: input.postLogoutRedirectUris ? [...new Set(input.postLogoutRedirectUris)] : current.postLogoutRedirectUris,
      backchannelLogoutUri: input.backchannelLogoutUri ?? current.backchannelLogoutUri,
    });
  }
  return { clientId: input.clientId, secret, created: existing === undefined };
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

/** Adds a user with an argon2id-hashed password. */
export async function addUser(deps: { db: Queryable }, input: AddUserInput): Promise<User> {
  checkUserInput(input);
  if (input.preRegistered) {
    const user = await insertPreRegisteredUser(deps.db, input);
    if (!user) throw new OperationError(`a user with email ${input.email.trim()} already exists`);
    return user;
  }
  const password = input.password ?? '';
  try {
    return await insertUser(deps.db, {
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      passwordHash: await hashPassword(password),
      passwordTemporary: input.temporary ?? false,
    });
  } catch (error) {
    if (error instanceof DuplicateEmailError) throw new OperationError(error.message);
    throw error;
  }
}

/** Forces a password reset: the user is signed out everywhere and sent through recovery at the next sign-in. */
export async function requireReset(deps: SessionDeps, email: string): Promise<User> {
  const user = await requirePasswordReset(deps.db, email);
  if (!user) throw new OperationError(`no user has the email ${email.trim()}`);
  await endSessions(deps, { userId: user.id, which: { all: true }, reason: 'password_reset', actor: 'operator' });
  await revokeAllTrustedDevices(deps.db, user.id);
  await recordSecurityEvent(deps.db, { userId: user.id, kind: 'password_reset_required', at: new Date(deps.clock()), detail: { actor: 'operator' } });
  return user;
}

/** Adds a new signing key and a new credential key; each process picks them up as server/crypto/key-store.ts describes. */
export async function rotateKeys(keys: Pick<KeyStore, 'rotate'>): Promise<{ signing: string[]; credentials: string }> {
  const signing = await keys.rotate('signing');
  const [credentials = ''] = (await keys.rotate('credentials')).kids;
  return { signing: signing.kids, credentials };
}
