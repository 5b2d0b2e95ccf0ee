import crypto from 'node:crypto';
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { LIMITS } from '../limits.ts';
import type { Database, Queryable } from '../db/database.ts';
import { addFirstRecoveryCodes, liveRecoveryCodes, recoveryCodesLeft, replaceRecoveryCodes, spendRecoveryCodeById } from '../store/recovery-codes.ts';
import { argon2Gate } from './passwords.ts';
import { guessBudget, type GuessSubject } from './guess-budget.ts';

/**
 * 32 characters with no O/0 and no I/1, so a code read aloud or written down is not misread. Codes made before
 * (RFC 4648 base32, A–Z and 2–7) are still accepted: a typed code is only upper-cased and stripped of separators.
 */
const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** `Algorithm.Argon2id`; the package ships it as a const enum, which isolated modules cannot read. */
const ARGON2ID = 2 as Algorithm;

const HASH_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: LIMITS.RECOVERY_CODE_ARGON2_MEMORY_KIB,
  timeCost: LIMITS.RECOVERY_CODE_ARGON2_TIME_COST,
  parallelism: 1,
} as const;

/** What recovery codes use: the store, and the key of the keyed hashes codes made before argon2id were stored with. */
export interface RecoveryCodeDeps {
  db: Database;
  hashKey: Buffer;
}

/** What recovery codes use, from the services: the store, and a hash key derived from the master key for them alone. */
export function recoveryCodeDeps(deps: { db: Database; box: { derive(purpose: string): Buffer } }): RecoveryCodeDeps {
  return { db: deps.db, hashKey: deps.box.derive('recovery-codes') };
}

/** One fresh code: RECOVERY_CODE_LENGTH characters of ALPHABET (5 random bits each), shown in groups of four. */
function newCode(): string {
  const characters = Array.from(crypto.randomBytes(LIMITS.RECOVERY_CODE_LENGTH), (byte) => ALPHABET[byte & 31]).join('');
  return characters.replace(/(.{4})(?=.)/g, '$1-');
}

/** A code as typed ("abcd efgh-ijkl", "abcdefghijkl") in its stored form: upper case, spaces and dashes dropped. */
function canonical(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '');
}

/** The keyed hash codes made before argon2id were stored with (read only, to accept those codes until replaced). */
function legacyHash(deps: RecoveryCodeDeps, userId: string, code: string): string {
  return crypto.createHmac('sha256', deps.hashKey).update(`recovery:${userId}:${code}`).digest('base64url');
}

/** Whether `code` (canonical) is the one stored as `stored`: an argon2id hash, or a keyed hash of an older set. */
async function matches(deps: RecoveryCodeDeps, userId: string, code: string, stored: string): Promise<boolean> {
  if (!stored.startsWith('$argon2')) {
    const expected = Buffer.from(stored);
    const given = Buffer.from(legacyHash(deps, userId, code));
    return expected.length === given.length && crypto.timingSafeEqual(expected, given);
  }
  return argon2Gate.run(() => verify(stored, code).catch(() => false));
}

/** Fresh codes and their salted hashes (the hashes alone are stored). */
async function newCodeSet(): Promise<{ codes: string[]; hashes: string[] }> {
  const codes = Array.from({ length: LIMITS.RECOVERY_CODE_COUNT }, newCode);
  const hashes = await Promise.all(codes.map((code) => argon2Gate.run(() => hash(canonical(code), HASH_OPTIONS))));
  return { codes, hashes };
}

/** Makes a new set of recovery codes, replacing the old set; the plain codes are returned once and never stored. */
export async function generateRecoveryCodes(deps: RecoveryCodeDeps, userId: string, now: Date): Promise<string[]> {
  const { codes, hashes } = await newCodeSet();
  await replaceRecoveryCodes(deps.db, userId, hashes, now);
  return codes;
}

/**
 * Makes the first set of an account that has no live code; undefined when it has one, even one a parallel request
 * made a moment ago, whose codes that request shows: a second set must never void the one on the person's screen.
 */
export async function generateFirstRecoveryCodes(deps: RecoveryCodeDeps, userId: string, now: Date): Promise<string[] | undefined> {
  const { codes, hashes } = await newCodeSet();
  return (await addFirstRecoveryCodes(deps.db, userId, hashes, now)) ? codes : undefined;
}

/** What using a recovery code came to: accepted once, wrong (counted), or refused while the account's guesses rest. */
export type RecoveryCodeOutcome = { kind: 'accepted' } | { kind: 'invalid' } | { kind: 'too_many_attempts'; retryAfter: number };

/**
 * Uses a recovery code once: exactly one use of a live code is accepted. A wrong one (used, unknown, malformed) is
 * counted in the account's guess budget, as wrong one-time codes are, so the codes cannot be guessed without end.
 */
export async function redeemRecoveryCode(deps: RecoveryCodeDeps, userId: string, code: string, now: Date): Promise<RecoveryCodeOutcome> {
  const subject: GuessSubject = { subject: userId, purpose: 'recovery_code' };
  const resting = await guessBudget.restingFor(deps.db, subject, now);
  if (resting > 0) return { kind: 'too_many_attempts', retryAfter: resting };
  const typed = canonical(code);
  let found: string | undefined;
  if (/^[A-Z0-9]+$/.test(typed) && typed.length === LIMITS.RECOVERY_CODE_LENGTH) {
    // Every live code is checked, whichever matches, so the time taken says nothing about which one it was.
    for (const row of await liveRecoveryCodes(deps.db, userId)) {
      if ((await matches(deps, userId, typed, row.codeHash)) && found === undefined) found = row.id;
    }
  }
  return deps.db.transaction(async (tx) => {
    const wait = await guessBudget.lock(tx, subject, now);
    if (wait > 0) return { kind: 'too_many_attempts', retryAfter: wait };
    if (found === undefined) {
      await guessBudget.countWrong(tx, subject);
      return { kind: 'invalid' };
    }
    // A live code of the set that a parallel use spent first was known, not guessed: refused, not counted.
    if (!(await spendRecoveryCodeById(tx, userId, found, now))) return { kind: 'invalid' };
    await guessBudget.clear(tx, subject);
    return { kind: 'accepted' };
  });
}

/** How many recovery codes the user has left, and whether that is few enough to warn. */
export async function recoveryCodeStatus(db: Queryable, userId: string): Promise<{ left: number; generatedAt: string | undefined; low: boolean }> {
  const { left, createdAt } = await recoveryCodesLeft(db, userId);
  return { left, generatedAt: createdAt?.toISOString(), low: createdAt !== undefined && left <= LIMITS.RECOVERY_CODES_LOW };
}
