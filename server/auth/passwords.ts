import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { LIMITS } from '../limits.ts';
import { createArgon2Gate } from './argon2-gate.ts';

/** `Algorithm.Argon2id`; the package ships it as a const enum, which isolated modules cannot read. */
const ARGON2ID = 2 as Algorithm;

const OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: LIMITS.ARGON2_MEMORY_KIB,
  timeCost: LIMITS.ARGON2_TIME_COST,
  parallelism: LIMITS.ARGON2_PARALLELISM,
} as const;

/**
 * Every hash and verification of this process waits here: argon2id runs on libuv's thread pool, which the whole
 * process shares, so the bound is the process's, not a server instance's.
 */
export const argon2Gate = createArgon2Gate({ concurrency: LIMITS.ARGON2_CONCURRENCY, maxWaiting: LIMITS.ARGON2_MAX_WAITING });

/** Hashes a password with argon2id (the parameters in LIMITS); the salt is random per call. */
export function hashPassword(password: string): Promise<string> {
  return argon2Gate.run(() => hash(password, OPTIONS));
}

/** A hash of a random password, made once: verifying against it costs the same as a real check. */
let decoyHash: Promise<string> | undefined;

/**
 * Checks `password` against `storedHash`. With no stored hash (unknown user, or a user without a password)
 * it verifies against a decoy so the answer takes the same time and reveals nothing.
 */
export async function verifyPassword(password: string, storedHash: string | null | undefined): Promise<boolean> {
  if (!storedHash) {
    decoyHash ??= hash(crypto.randomUUID(), OPTIONS);
    const decoy = await decoyHash;
    await argon2Gate.run(() => verify(decoy, password).catch(() => false));
    return false;
  }
  return argon2Gate.run(async () => {
    try {
      return await verify(storedHash, password);
    } catch {
      return false;
    }
  });
}
