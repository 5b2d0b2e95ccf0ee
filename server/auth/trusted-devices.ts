import { LIMITS } from '../limits.ts';
import { randomToken, sha256 } from '../crypto/hash.ts';
import type { Services } from '../services.ts';
import type { RequestOrigin } from '../store/security-events.ts';
import type { SignInTransaction } from '../store/transactions.ts';
import { createTrustedDevice, useTrustedDevice } from '../store/trusted-devices.ts';
import { TRUSTED_DEVICE_AMR } from '../oidc/acr.ts';

/** A trusted browser's token as the cookie carries it: 32 random bytes, base64url. */
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/** The hash of a well-formed trusted-browser token; undefined for anything else (a forged value is just ignored). */
export function trustTokenHash(cookie: string | undefined): string | undefined {
  return cookie !== undefined && TOKEN_FORMAT.test(cookie) ? sha256(cookie) : undefined;
}

/** What the sign-in keeps of the browser's trust: the token's hash, and whether the client asked for a fresh sign-in. */
export interface SignInTrust {
  trustHash?: string;
  /** The client sent prompt=login or max_age: it wants every factor proven now, so trust is neither used nor made. */
  freshAuth: boolean;
  /** The client asked for a level (`acr`) that needs a second factor proven now: one is asked for, trust or not. */
  secondFactorRequired?: boolean;
  /** The client asked for the phishing-resistant level (`acr`): only a passkey proven now reaches it. */
  passkeyRequired?: boolean;
}

/** The sign-in's trust, as startSignIn kept it in the transaction. */
export function readSignInTrust(transaction: Pick<SignInTransaction, 'data'>): SignInTrust {
  const trust = transaction.data.trust as { trustHash?: unknown; freshAuth?: unknown; secondFactorRequired?: unknown; passkeyRequired?: unknown } | undefined;
  return {
    trustHash: typeof trust?.trustHash === 'string' ? trust.trustHash : undefined,
    freshAuth: trust?.freshAuth === true,
    secondFactorRequired: trust?.secondFactorRequired === true,
    passkeyRequired: trust?.passkeyRequired === true,
  };
}

/**
 * What a second-factor answer tells the screen of the client's shared-device hint: `shared_device` while the client
 * asked for a fresh sign-in, so "Don't ask for a code on this device" is not offered (the server ignores it anyway).
 */
export function sharedDeviceHint(transaction: Pick<SignInTransaction, 'data'>): { shared_device?: true } {
  return readSignInTrust(transaction).freshAuth ? { shared_device: true } : {};
}

/**
 * The amr of a sign-in the user's trusted browser stood in for the second factor of (`pwd` and `trusted_device`), when this sign-in may use it (the client did not ask for a
 * fresh sign-in, and the browser's token is the user's own and unexpired); undefined otherwise.
 */
export async function trustedSecondFactor(deps: Pick<Services, 'db' | 'clock'>, userId: string, transaction: Pick<SignInTransaction, 'data'>): Promise<string[] | undefined> {
  const { trustHash, freshAuth, secondFactorRequired } = readSignInTrust(transaction);
  if (freshAuth || secondFactorRequired || trustHash === undefined) return undefined;
  const used = await useTrustedDevice(deps.db, userId, trustHash, new Date(deps.clock()));
  // Said as it happened: the password, and the trusted browser in place of a code (not the factor that made the trust).
  return used && ['pwd', TRUSTED_DEVICE_AMR];
}

/**
 * Trusts the browser for the user, for LIMITS.TRUSTED_DEVICE_TTL, on the strength of the factor just proven (its
 * `amr`). Answers the token for the browser's cookie (only its hash is kept), or undefined when the client asked
 * for a fresh sign-in.
 */
export async function trustBrowser(
  deps: Pick<Services, 'db' | 'clock'>,
  made: { userId: string; factorId: string | null; amr: readonly string[]; origin: RequestOrigin; transaction: Pick<SignInTransaction, 'data'> },
): Promise<string | undefined> {
  if (readSignInTrust(made.transaction).freshAuth) return undefined;
  const token = randomToken(32);
  const now = new Date(deps.clock());
  await createTrustedDevice(deps.db, {
    userId: made.userId,
    tokenHash: sha256(token),
    factorId: made.factorId,
    amr: made.amr,
    userAgent: made.origin.userAgent?.slice(0, LIMITS.SECURITY_EVENT_USER_AGENT_MAX),
    ip: made.origin.ip,
    now,
    expiresAt: new Date(now.getTime() + LIMITS.TRUSTED_DEVICE_TTL * 1000),
  });
  return token;
}
