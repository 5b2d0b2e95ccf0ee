// @vitest-environment node
/**
 * Credential encryption: what the browser sends decrypts, with the server's private key, to the
 * value and the single-use nonce, under the agreed JWE header.
 */
import { compactDecrypt, exportJWK, generateKeyPair } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, ApiRequest } from '../../src/services/api-client.ts';
import { encryptFields, encryptValue, type CredentialKey } from '../../src/services/credentials.ts';
import { runStepCall } from '../../src/engine/step-call.ts';
import type { StepCall } from '../../src/engine/flow-types.ts';
import { decryptFields } from '../../server/auth/credentials.ts';
import type { KeyStore } from '../../server/crypto/key-store.ts';
import type { Queryable } from '../../server/db/database.ts';

let keys: CryptoKeyPair;
let credentialKey: CredentialKey;

beforeAll(async () => {
  keys = await generateKeyPair('RSA-OAEP-256', { extractable: true });
  credentialKey = { kid: 'kid-1', jwk: { ...(await exportJWK(keys.publicKey)), alg: 'RSA-OAEP-256' }, nonce: 'n-123' };
});

async function decrypt(jwe: string) {
  const { plaintext, protectedHeader } = await compactDecrypt(jwe, keys.privateKey);
  return { payload: JSON.parse(new TextDecoder().decode(plaintext)) as unknown, protectedHeader };
}

describe('encryptValue', () => {
  it('produces a compact JWE that decrypts to {v, n} under RSA-OAEP-256 / A256GCM with the kid', async () => {
    const jwe = await encryptValue('correct horse battery staple', credentialKey);
    expect(jwe.split('.')).toHaveLength(5);
    const { payload, protectedHeader } = await decrypt(jwe);
    expect(payload).toEqual({ v: 'correct horse battery staple', n: 'n-123' });
    expect(protectedHeader).toEqual({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: 'kid-1' });
  });

  it('keeps non-ASCII passwords intact', async () => {
    const { payload } = await decrypt(await encryptValue('pässwörd-🔑', credentialKey));
    expect(payload).toEqual({ v: 'pässwörd-🔑', n: 'n-123' });
  });

  it('encrypts the same value differently each time', async () => {
    expect(await encryptValue('same', credentialKey)).not.toBe(await encryptValue('same', credentialKey));
  });
});

describe('the server reading what the browser encrypts', () => {
  /** The server's own decryption (jose, its algorithm allow-list, the single-use nonce) over a key store holding `keys`. */
  async function serverOpens(body: Record<string, unknown>, fields: string[]) {
    const usedNonces: unknown[] = [];
    const keyStore: Pick<KeyStore, 'currentCredentialKey' | 'credentialPrivateKey' | 'signingJwks'> = {
      currentCredentialKey: async () => ({ kid: 'kid-1', jwk: credentialKey.jwk }),
      credentialPrivateKey: async (kid) => (kid === 'kid-1' ? keys.privateKey : undefined),
      signingJwks: async () => [],
    };
    const db: Queryable = {
      async query<Row extends object>(_sql: string, params?: readonly unknown[]) {
        const fresh = !usedNonces.includes(params?.[0]);
        usedNonces.push(params?.[0]);
        return { rows: [] as Row[], rowCount: fresh ? 1 : 0 };
      },
    };
    return decryptFields({ keys: keyStore, db, clock: () => Date.now() }, body, fields);
  }

  it('opens the browser\'s fields to their plaintext, with the key as the server publishes it (kid, alg, use)', async () => {
    const published: CredentialKey = { ...credentialKey, jwk: { ...credentialKey.jwk, kid: 'kid-1', use: 'enc' } };
    const body = await encryptFields({ email: 'ada@example.com', password: 'pässwörd-🔑', otp: '123456' }, ['password', 'otp'], published);
    expect(await serverOpens(body, ['password', 'otp'])).toEqual({ email: 'ada@example.com', password: 'pässwörd-🔑', otp: '123456' });
  });

  it('refuses a JWE whose protected header was altered on the way (the header is authenticated)', async () => {
    const [, ...rest] = (await encryptValue('secret', credentialKey)).split('.');
    const alteredHeader = Buffer.from(JSON.stringify({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: 'kid-1', x: 1 })).toString('base64url');
    await expect(serverOpens({ password: [alteredHeader, ...rest].join('.') }, ['password'])).rejects.toMatchObject({ code: 'credentials.unreadable' });
  });

  it('refuses a JWE whose ciphertext was altered on the way', async () => {
    const parts = (await encryptValue('secret', credentialKey)).split('.');
    const ciphertext = Buffer.from(parts[3] ?? '', 'base64url');
    ciphertext[0] = (ciphertext[0] ?? 0) ^ 1;
    parts[3] = ciphertext.toString('base64url');
    await expect(serverOpens({ password: parts.join('.') }, ['password'])).rejects.toMatchObject({ code: 'credentials.unreadable' });
  });
});

describe('encryptFields', () => {
  it('replaces only the listed fields that have a value', async () => {
    const result = await encryptFields({ email: 'ada@example.com', password: 'secret' }, ['password', 'otp'], credentialKey);
    expect(result.email).toBe('ada@example.com');
    expect('otp' in result).toBe(false);
    expect((await decrypt(String(result.password))).payload).toEqual({ v: 'secret', n: 'n-123' });
  });
});

describe('runStepCall with encrypt fields', () => {
  it('fetches a fresh key for each submit and posts the encrypted body', async () => {
    const requests: ApiRequest[] = [];
    const api: ApiClient = {
      async request<T>(request: ApiRequest): Promise<T> {
        requests.push(request);
        return (request.path === 'crypto/rsa-public-key' ? credentialKey : { redirect_to: '/oidc/auth/1' }) as T;
      },
    };
    const call: StepCall = { method: 'POST', path: 'auth/login', encrypt: ['password'] };
    const values = { email: 'ada@example.com', password: 'secret' };
    await runStepCall({ call, query: new URLSearchParams(), values }, api);
    await runStepCall({ call, query: new URLSearchParams(), values }, api);

    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET crypto/rsa-public-key',
      'POST auth/login',
      'GET crypto/rsa-public-key',
      'POST auth/login',
    ]);
    const body = requests[1]?.body as Record<string, string>;
    expect(body.email).toBe('ada@example.com');
    expect((await decrypt(body.password ?? '')).payload).toEqual({ v: 'secret', n: 'n-123' });
  });
});
