import crypto from 'node:crypto';
import { CompactEncrypt, importJWK, compactDecrypt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../server/limits.ts';
import { createKeyStore } from '../../server/crypto/key-store.ts';
import { createSecretBox } from '../../server/crypto/secret-box.ts';
import type { Database } from '../../server/db/database.ts';
import { testBackends } from './support/databases.ts';

const DAY = 24 * 3600 * 1000;

describe('credential-encryption keys', () => {
  let db: Database;
  let now = Date.UTC(2026, 0, 1);
  const clock = () => now;
  const box = createSecretBox(crypto.randomBytes(32));
  beforeAll(async () => {
    db = await testBackends()[0]!.open();
  });
  afterAll(async () => {
    await db.close();
  });

  it('makes an RSA-OAEP-256 key of at least 2048 bits with a key id on first use, and keeps it', async () => {
    const keys = createKeyStore({ db, box, clock });
    const key = await keys.currentCredentialKey();
    expect(key.kid).toMatch(/^[0-9a-f-]{36}$/);
    expect(key.jwk).toMatchObject({ kty: 'RSA', alg: 'RSA-OAEP-256', kid: key.kid, use: 'enc' });
    expect(Buffer.from(key.jwk.n!, 'base64url').length * 8).toBeGreaterThanOrEqual(2048);
    expect(key.jwk.d).toBeUndefined();
    expect((await keys.currentCredentialKey()).kid).toBe(key.kid);
  });

  it('keeps private keys only sealed at rest', async () => {
    const rows = await db.query<{ private_jwk_encrypted: string }>('select private_jwk_encrypted from keys');
    for (const row of rows.rows) expect(row.private_jwk_encrypted).toMatch(/^v1\./);
  });

  it('rotates after the rotation period and accepts the previous key only during the grace period', async () => {
    const keys = createKeyStore({ db, box, clock });
    const first = await keys.currentCredentialKey();
    const ciphertext = await new CompactEncrypt(new TextEncoder().encode('secret'))
      .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: first.kid })
      .encrypt(await importJWK(first.jwk, 'RSA-OAEP-256'));

    now += LIMITS.CREDENTIAL_KEY_ROTATION * 1000 + DAY;
    const second = await keys.currentCredentialKey();
    expect(second.kid).not.toBe(first.kid);

    const fresh = createKeyStore({ db, box, clock });
    const previous = await fresh.credentialPrivateKey(first.kid);
    expect(previous).toBeDefined();
    expect(new TextDecoder().decode((await compactDecrypt(ciphertext, previous!)).plaintext)).toBe('secret');

    now += LIMITS.CREDENTIAL_KEY_GRACE * 1000 + 1000;
    expect(await createKeyStore({ db, box, clock }).credentialPrivateKey(first.kid)).toBeUndefined();
    expect(await createKeyStore({ db, box, clock }).credentialPrivateKey(second.kid)).toBeDefined();
  });

  it('knows nothing of a key id it never made', async () => {
    expect(await createKeyStore({ db, box, clock }).credentialPrivateKey('no-such-kid')).toBeUndefined();
  });

  it('makes one signing key of every type, RSA (RS256, PS256) and P-256 (ES256), and hands oidc-provider their private JWKs', async () => {
    const keys = createKeyStore({ db, box, clock });
    const signing = await keys.signingJwks();
    expect(signing).toHaveLength(2);
    expect(signing.find((key) => key.kty === 'EC')).toMatchObject({ crv: 'P-256', alg: 'ES256', use: 'sig', d: expect.any(String) });
    expect(signing.find((key) => key.kty === 'RSA')).toMatchObject({ use: 'sig', d: expect.any(String) });
    expect(signing.find((key) => key.kty === 'RSA')?.alg).toBeUndefined();
    expect((await keys.signingJwks()).map((key) => key.kid).sort()).toEqual(signing.map((key) => key.kid).sort());
  });
});
