import { describe, expect, it, vi } from 'vitest';

const verifyCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const original = await importOriginal<typeof import('@node-rs/argon2')>();
  return {
    ...original,
    verify: (...args: Parameters<typeof original.verify>) => {
      verifyCalls.count += 1;
      return original.verify(...args);
    },
  };
});

const { hashPassword, verifyPassword } = await import('../../server/auth/passwords.ts');

describe('password hashing', () => {
  it('hashes with argon2id at m=19456 KiB, t=2, p=1, salted per hash', async () => {
    const first = await hashPassword('correct horse battery staple');
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await hashPassword('correct horse battery staple')).not.toBe(first);
  });

  it('accepts the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('Str0ng!pass');
    expect(await verifyPassword('Str0ng!pass', hash)).toBe(true);
    expect(await verifyPassword('str0ng!pass', hash)).toBe(false);
  });

  it('still runs a full argon2id verification for an unknown user, so the answer takes as long', async () => {
    await verifyPassword('warm-up', null);
    const before = verifyCalls.count;
    expect(await verifyPassword('anything', null)).toBe(false);
    expect(await verifyPassword('anything', undefined)).toBe(false);
    expect(verifyCalls.count - before).toBe(2);
  });

  it('treats a corrupt stored hash as a failed check, not an error', async () => {
    expect(await verifyPassword('x', 'not-a-hash')).toBe(false);
  });
});
