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
    const call = { method: 'POST', path: 'auth/login', encrypt: ['password'] } as const;
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
