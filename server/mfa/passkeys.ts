/**
 * Passkeys (WebAuthn), with @simplewebauthn/server doing the ceremony's checks: the relying party is the host of
 * PUBLIC_URL, every challenge is kept server-side (for a sign-in transaction or an account session), used once and
 * only for LIMITS.PASSKEY_CHALLENGE_TTL, and user verification is required.
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { PRODUCT_NAME, type Config } from '../config.ts';
import { LIMITS } from '../limits.ts';
import { ApiError } from '../errors.ts';
import type { Services } from '../services.ts';
import { consumeChallenge, findChallenge, saveChallenge, type PasskeyPurpose } from '../store/passkey-challenges.ts';
import { addPasskey, advanceCounter, findPasskey, userPasskeys, type PasskeyCredential } from '../store/passkeys.ts';
import { recordSecurityEvent, type RequestOrigin } from '../store/security-events.ts';
import authenticatorNames from './passkey-authenticators.json' with { type: 'json' };
import { passkeysPossible } from './passkey-host.ts';
import { coseKeyMatchesAlgorithm, PASSKEY_ALGORITHMS } from './passkey-keys.ts';

/** What the passkey ceremonies use. */
export type PasskeyDeps = Pick<Services, 'config' | 'db' | 'clock'>;

/** Whose challenge it is: a sign-in transaction (by interaction) or an account session. */
export type ChallengeOwner = `sign-in:${string}` | `account:${string}`;

/** The challenge owner of a sign-in: its interaction. */
export function signInOwner(transaction: { interactionUid: string }): ChallengeOwner {
  return `sign-in:${transaction.interactionUid}`;
}

/** The challenge owner of an account-page session. */
export function accountOwner(sessionUid: string): ChallengeOwner {
  return `account:${sessionUid}`;
}

/**
 * The relying party: WebAuthn binds every passkey to the host of PUBLIC_URL and checks the page's origin. On an IP
 * address no browser would go on, so every ceremony stops here with words that say why.
 */
export function relyingParty(config: Pick<Config, 'publicUrl'>): { rpID: string; origin: string } {
  if (!passkeysPossible(config)) throw new ApiError('passkey.unavailable');
  const url = new URL(config.publicUrl);
  return { rpID: url.hostname, origin: url.origin };
}

/** The name of the authenticator model behind an AAGUID, where it is a well-known one. */
export function authenticatorName(aaguid: string): string | null {
  const names: Readonly<Record<string, string>> = authenticatorNames.names;
  return Object.hasOwn(names, aaguid) ? (names[aaguid] ?? null) : null;
}

/**
 * The `amr` (RFC 8176) a passkey proves: `hwk` for a key bound to one device, `swk` for a synced one, and `user`
 * when the authenticator verified the person (PIN, fingerprint).
 */
export function passkeyAmr(credential: Pick<PasskeyCredential, 'deviceType'>, userVerified: boolean): string[] {
  return [credential.deviceType === 'singleDevice' ? 'hwk' : 'swk', ...(userVerified ? ['user'] : [])];
}

async function keepChallenge(deps: PasskeyDeps, owner: ChallengeOwner, purpose: PasskeyPurpose, challenge: string): Promise<void> {
  const expiresAt = new Date(deps.clock() + LIMITS.PASSKEY_CHALLENGE_TTL * 1000);
  await saveChallenge(deps.db, { owner, purpose, challenge, expiresAt });
}

async function liveChallenge(deps: PasskeyDeps, owner: ChallengeOwner, purpose: PasskeyPurpose): Promise<string> {
  const challenge = await findChallenge(deps.db, owner, purpose, new Date(deps.clock()));
  if (challenge === undefined) throw new ApiError('passkey.expired');
  return challenge;
}

/** Uses a verified answer's challenge up; a second answer to it (a replay, a parallel copy) is refused here. */
async function useChallenge(deps: PasskeyDeps, owner: ChallengeOwner, purpose: PasskeyPurpose, challenge: string): Promise<void> {
  if (!(await consumeChallenge(deps.db, owner, purpose, challenge))) throw new ApiError('passkey.expired');
}

const transportsOf = (credential: PasskeyCredential) => credential.transports as AuthenticatorTransport[];

/** The options for adding a passkey to `user`; the passkeys they have are excluded, so one authenticator is not added twice. */
export async function registrationOptions(
  deps: PasskeyDeps,
  owner: ChallengeOwner,
  user: { id: string; email: string },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await userPasskeys(deps.db, user.id);
  const options = await generateRegistrationOptions({
    rpName: PRODUCT_NAME,
    rpID: relyingParty(deps.config).rpID,
    userName: user.email,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((credential) => ({ id: credential.credentialId, transports: transportsOf(credential) })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
    supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
    timeout: LIMITS.PASSKEY_CHALLENGE_TTL * 1000,
  });
  await keepChallenge(deps, owner, 'register', options.challenge);
  return options;
}

/** Whether a value has the shape of a WebAuthn answer (its id and response object); the library checks the rest. */
function isCredentialJson(value: unknown): value is { id: string; rawId: string; type: string; response: Record<string, unknown> } {
  const candidate = value as { id?: unknown; rawId?: unknown; type?: unknown; response?: unknown } | null;
  return (
    typeof candidate === 'object' && candidate !== null && typeof candidate.id === 'string' && typeof candidate.rawId === 'string' &&
    candidate.type === 'public-key' && typeof candidate.response === 'object' && candidate.response !== null
  );
}

/**
 * Checks a new passkey against the owner's registration challenge (used up once it verifies) and keeps it as a confirmed
 * factor of `userId`, named `name`; answers the new factor's id. Nothing is kept unless every check passed.
 */
export async function registerPasskey(
  deps: PasskeyDeps,
  owner: ChallengeOwner,
  input: { userId: string; response: unknown; name: string },
): Promise<{ factorId: string; amr: string[] }> {
  if (!isCredentialJson(input.response)) throw new ApiError('passkey.invalid');
  const expectedChallenge = await liveChallenge(deps, owner, 'register');
  const { rpID, origin } = relyingParty(deps.config);
  const verification = await verifyRegistrationResponse({
    response: input.response as unknown as RegistrationResponseJSON,
    expectedChallenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: true,
    supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
  }).catch(() => undefined);
  if (!verification?.verified) throw new ApiError('passkey.invalid');
  const info = verification.registrationInfo;
  // The answer's id must name the credential the authenticator made (authData), and its key must be what its algorithm says.
  if (info.credential.id !== input.response.id || !coseKeyMatchesAlgorithm(info.credential.publicKey)) throw new ApiError('passkey.invalid');
  await useChallenge(deps, owner, 'register', expectedChallenge);
  const factorId = await addPasskey(deps.db, {
    userId: input.userId,
    credentialId: info.credential.id,
    publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
    counter: info.credential.counter,
    transports: info.credential.transports ?? [],
    aaguid: info.aaguid,
    deviceType: info.credentialDeviceType,
    backedUp: info.credentialBackedUp,
    name: input.name.trim().slice(0, LIMITS.FACTOR_LABEL_MAX) || (authenticatorName(info.aaguid) ?? 'Passkey'),
    now: new Date(deps.clock()),
  });
  if (factorId === undefined) throw new ApiError('passkey.already_registered');
  return { factorId, amr: passkeyAmr({ deviceType: info.credentialDeviceType }, info.userVerified) };
}

/**
 * The options for proving a passkey: `userId`'s passkeys at a second-factor step or a step-up; none named for a
 * passwordless sign-in, where the browser offers the passkeys it holds for this site.
 */
export async function authenticationOptions(deps: PasskeyDeps, owner: ChallengeOwner, userId?: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const credentials = userId === undefined ? [] : await userPasskeys(deps.db, userId);
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(deps.config).rpID,
    allowCredentials: credentials.map((credential) => ({ id: credential.credentialId, transports: transportsOf(credential) })),
    userVerification: 'required',
    timeout: LIMITS.PASSKEY_CHALLENGE_TTL * 1000,
  });
  await keepChallenge(deps, owner, 'authenticate', options.challenge);
  return options;
}

/** A passkey proven: whose, which factor, and the `amr` it earned. */
export interface ProvenPasskey {
  userId: string;
  factorId: string;
  amr: string[];
  userVerified: boolean;
}

/**
 * WebAuthn L2 §7.2 step 6: a userHandle, when given, must be the credential owner's (the user id the passkey was
 * made with); a sign-in that has not identified the user yet (passwordless) must be given one.
 */
function userHandleMatches(userHandle: unknown, ownerId: string, required: boolean): boolean {
  if (userHandle === undefined || userHandle === null || userHandle === '') return !required;
  return typeof userHandle === 'string' && userHandle === Buffer.from(ownerId, 'utf8').toString('base64url');
}

/**
 * Checks an assertion against the owner's challenge (used up once it verifies, so a replay finds none), the relying party,
 * the origin, user verification and the signature counter; with `userId`, the passkey must be that user's.
 */
export async function provePasskey(
  deps: PasskeyDeps,
  owner: ChallengeOwner,
  input: { response: unknown; userId?: string; origin: RequestOrigin },
): Promise<ProvenPasskey> {
  if (!isCredentialJson(input.response)) throw new ApiError('passkey.invalid');
  // The id names the credential the signature is checked with; it must be the rawId the authenticator answered.
  if (input.response.id !== input.response.rawId) throw new ApiError('passkey.invalid');
  const expectedChallenge = await liveChallenge(deps, owner, 'authenticate');
  const credential = await findPasskey(deps.db, input.response.id);
  if (!credential || (input.userId !== undefined && credential.userId !== input.userId)) throw new ApiError('passkey.invalid');
  if (!userHandleMatches(input.response.response.userHandle, credential.userId, input.userId === undefined)) throw new ApiError('passkey.invalid');
  const { rpID, origin } = relyingParty(deps.config);
  const verification = await verifyAuthenticationResponse({
    response: input.response as unknown as AuthenticationResponseJSON,
    expectedChallenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    // The counter is compared below, in the same statement that stores the new one, so parallel answers cannot both pass.
    credential: { id: credential.credentialId, publicKey: Buffer.from(credential.publicKey, 'base64url'), counter: 0, transports: credential.transports },
    requireUserVerification: true,
  }).catch(() => undefined);
  if (!verification?.verified) throw new ApiError('passkey.invalid');
  await useChallenge(deps, owner, 'authenticate', expectedChallenge);
  const { newCounter, userVerified, credentialBackedUp } = verification.authenticationInfo;
  if (!(await advanceCounter(deps.db, credential.credentialId, newCounter, credentialBackedUp))) {
    // An authenticator that keeps a counter never goes back: another copy of the key may exist.
    await recordSecurityEvent(deps.db, {
      userId: credential.userId,
      kind: 'passkey_clone_warning',
      at: new Date(deps.clock()),
      ...input.origin,
      detail: { factor_id: credential.factorId, stored_counter: credential.counter, received_counter: newCounter },
    });
    throw new ApiError('passkey.invalid');
  }
  return { userId: credential.userId, factorId: credential.factorId, amr: passkeyAmr(credential, userVerified), userVerified };
}
