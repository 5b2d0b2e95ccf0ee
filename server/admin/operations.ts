import { revokeAllTrustedDevices } from '../store/trusted-devices.ts';
import { OperationError } from './operation-error.ts';
import { checkResourceServerFree, resolveClientSecurity } from './client-security-input.ts';
import { checkClientInput, checkUserInput, type AddClientInput, type AddUserInput } from './operation-input.ts';
import { findClientSecurity, setClientSecurity } from '../store/client-security.ts';
import { hashPassword } from '../auth/passwords.ts';
import { randomToken } from '../crypto/hash.ts';
import type { KeyStore } from '../crypto/key-store.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Queryable } from '../db/database.ts';
import { findClientInfo, findClientLogout, setClientIdTokenAlg, setClientLogout, setClientRefreshTokens, upsertClient } from '../store/clients.ts';
import { setClientSignInStart } from '../store/invitations.ts';
import { endSessions, type SessionDeps } from '../auth/sessions.ts';
import { insertPreRegisteredUser } from '../store/registrations.ts';
import { recordSecurityEvent } from '../store/security-events.ts';
import { DuplicateEmailError, insertUser, requirePasswordReset, type User } from '../store/users.ts';

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
