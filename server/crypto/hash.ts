import crypto from 'node:crypto';

/** SHA-256 of a high-entropy token, for storing lookup keys of random secrets (never for passwords). */
export function sha256(value: string): string {
  return crypto.createHash('sha256').update(value).digest('base64url');
}

/** A random URL-safe token with `bytes` of entropy. */
export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

/** Compares two secrets in constant time (for equal lengths; lengths are not secret here). */
export function secretsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}
