import { ONE_TIME_CODE_PATTERN } from '../../contract/one-time-code.ts';
import { Secret, TOTP } from 'otpauth';
import { PRODUCT_NAME } from '../config.ts';
import { LIMITS } from '../limits.ts';

/** The hash functions RFC 6238 allows; authenticator apps expect SHA1, the others exist for the RFC's test vectors. */
export type TotpAlgorithm = 'SHA1' | 'SHA256' | 'SHA512';

/** A fresh TOTP secret from the CSPRNG, base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: LIMITS.TOTP_SECRET_BYTES }).base32;
}

function totp(secret: string, options: { algorithm?: TotpAlgorithm; digits?: number; issuer?: string; label?: string } = {}): TOTP {
  return new TOTP({
    secret: Secret.fromBase32(secret),
    algorithm: options.algorithm ?? 'SHA1',
    digits: options.digits ?? LIMITS.TOTP_DIGITS,
    period: LIMITS.TOTP_PERIOD,
    issuer: options.issuer ?? '',
    label: options.label ?? '',
  });
}

/** The code for `timestamp` (ms); the product uses the defaults, the RFC's vectors set algorithm and digits. */
export function totpCodeAt(secret: string, timestamp: number, options: { algorithm?: TotpAlgorithm; digits?: number } = {}): string {
  return totp(secret, options).generate({ timestamp });
}

const ONE_TIME_CODE = new RegExp(ONE_TIME_CODE_PATTERN);

/**
 * The time step a code belongs to, within LIMITS.TOTP_WINDOW steps of `timestamp`; undefined when it matches none.
 * The caller claims the step (attemptTotpStep) so a code is accepted once.
 */
export function matchTotpStep(secret: string, code: string, timestamp: number): number | undefined {
  // otpauth compares with timingSafeEqual, which throws on a code of another byte length (a full-width digit).
  if (!ONE_TIME_CODE.test(code)) return undefined;
  const delta = totp(secret).validate({ token: code, timestamp, window: LIMITS.TOTP_WINDOW });
  if (delta === null) return undefined;
  return Math.floor(timestamp / 1000 / LIMITS.TOTP_PERIOD) + delta;
}

/** The issuer shown in the authenticator app: the product, then the client app the factor was set up from. */
export function totpIssuer(clientName: string | undefined): string {
  // Colons separate issuer and account in an otpauth label, so none may appear in the issuer.
  const name = clientName?.replace(/:/g, ' ').trim();
  return name ? `${PRODUCT_NAME} – ${name}` : PRODUCT_NAME;
}

/** The otpauth:// URI an authenticator app reads from the QR code or the link (issuer and account URL-encoded). */
export function totpUri(secret: string, issuer: string, account: string): string {
  return totp(secret, { issuer, label: account.replace(/:/g, ' ') }).toString();
}
