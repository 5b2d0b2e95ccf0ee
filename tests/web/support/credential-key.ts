/** A real RSA credential key for screen tests, so encrypted fields can be decrypted and checked. */
import { compactDecrypt, exportJWK, generateKeyPair } from 'jose';

/** The key pair and the `crypto/rsa-public-key` answer built from it. */
export interface TestCredentialKey {
  privateKey: CryptoKey;
  answer: { kid: string; jwk: object; nonce: string };
}

/** Makes a fresh RSA-OAEP-256 key pair and its API answer. */
export async function createTestCredentialKey(nonce = 'nonce-1'): Promise<TestCredentialKey> {
  const keys = await generateKeyPair('RSA-OAEP-256', { extractable: true });
  return { privateKey: keys.privateKey, answer: { kid: 'test-key', jwk: { ...(await exportJWK(keys.publicKey)), alg: 'RSA-OAEP-256' }, nonce } };
}

/** The `{ v, n }` plaintext of an encrypted field. */
export async function decryptField(jwe: string, privateKey: CryptoKey): Promise<unknown> {
  const { plaintext } = await compactDecrypt(jwe, privateKey);
  return JSON.parse(new TextDecoder().decode(plaintext)) as unknown;
}
