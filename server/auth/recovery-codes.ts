import crypto from 'node:crypto';
import { LIMITS } from '../limits.ts';
import type { Queryable } from '../db/database.ts';
import { recoveryCodesLeft, replaceRecoveryCodes, spendRecoveryCode } from '../store/recovery-codes.ts';

/** RFC 4648 base32 without padding: no 0/1/8/9, so a code read aloud or written down is not misread. */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** What recovery codes use: the store, and the key their hashes are made with. */
export interface RecoveryCodeDeps {
  db: Queryable;
  hashKey: Buffer;
}

/** What recovery codes use, from the services: the store, and a hash key derived from the master key for them alone. */
export function recoveryCodeDeps(deps: { db: Queryable; box: { derive(purpose: string): Buffer } }): RecoveryCodeDeps {
  return { db: deps.db, hashKey: deps.box.derive('recovery-codes') };
}

/** One fresh code: RECOVERY_CODE_LENGTH base32 characters (5 random bits each), shown in groups of four. */
function newCode(): string {
  const characters = Array.from(crypto.randomBytes(LIMITS.RECOVERY_CODE_LENGTH), (byte) => ALPHABET[byte & 31]).join('');
  return characters.replace(/(.{4})(?=.)/g, '$1-');
}

/** A code as typed ("abcd efgh-ijkl") in its stored form: upper case, separators dropped. */
function canonical(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '');
}

/** Codes have 60 random bits, so a keyed hash (no slow hash) keeps them safe at rest; the key binds it to the user. */
function hashOf(deps: RecoveryCodeDeps, userId: string, code: string): string {
  return crypto.createHmac('sha256', deps.hashKey).update(`recovery:${userId}:${canonical(code)}`).digest('base64url');
}

/** Makes a new set of recovery codes, replacing the old set; the plain codes are returned once and never stored. */
export async function generateRecoveryCodes(deps: RecoveryCodeDeps, userId: string, now: Date): Promise<string[]> {
  const codes = Array.from({ length: LIMITS.RECOVERY_CODE_COUNT }, newCode);
  await replaceRecoveryCodes(deps.db, userId, codes.map((code) => hashOf(deps, userId, code)), now);
  return codes;
}

/** Uses a recovery code once: true for exactly one use of a live code, false for a used, unknown or malformed one. */
export async function redeemRecoveryCode(deps: RecoveryCodeDeps, userId: string, code: string, now: Date): Promise<boolean> {
  if (!/^[A-Z2-7]+$/.test(canonical(code)) || canonical(code).length !== LIMITS.RECOVERY_CODE_LENGTH) return false;
  return spendRecoveryCode(deps.db, userId, hashOf(deps, userId, code), now);
}

/** How many recovery codes the user has left, and whether that is few enough to warn. */
export async function recoveryCodeStatus(db: Queryable, userId: string): Promise<{ left: number; generatedAt: string | undefined; low: boolean }> {
  const { left, createdAt } = await recoveryCodesLeft(db, userId);
  return { left, generatedAt: createdAt?.toISOString(), low: createdAt !== undefined && left <= LIMITS.RECOVERY_CODES_LOW };
}
