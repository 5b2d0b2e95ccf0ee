/**
 * Credential encryption: listed form fields leave the browser only as JWEs to the server's
 * one-time credential key, so a proxy or log in between never sees a password.
 */
import type { JWK } from 'jose';
import type { ApiClient } from './api-client.ts';

/** The server's credential key (GET crypto/rsa-public-key); the nonce is good for one submit. */
export interface CredentialKey {
  kid: string;
  jwk: JWK;
  nonce: string;
}

const KEY_ALGORITHM = 'RSA-OAEP-256';
const CONTENT_ENCRYPTION = 'A256GCM';

/** Fetches a fresh credential key; called for every submit because each nonce is single-use. */
export function fetchCredentialKey(api: ApiClient): Promise<CredentialKey> {
  return api.request<CredentialKey>({ method: 'GET', path: 'crypto/rsa-public-key' });
}

/** Starts loading the encryption code early (a step with encrypted fields is on screen). */
export function preloadEncryption(): void {
  void import('./jose-encrypt.ts').catch(() => undefined);
}

/** Encrypts one value as a compact JWE whose plaintext is the JSON `{"v": value, "n": nonce}`. */
export async function encryptValue(value: unknown, key: CredentialKey): Promise<string> {
  // Loaded on first submit, not with the page: the login screen renders without it.
  const { CompactEncrypt, importJWK } = await import('./jose-encrypt.ts');
  const publicKey = await importJWK({ ...key.jwk, alg: KEY_ALGORITHM }, KEY_ALGORITHM);
  const plaintext = new TextEncoder().encode(JSON.stringify({ v: value, n: key.nonce }));
  return new CompactEncrypt(plaintext)
    .setProtectedHeader({ alg: KEY_ALGORITHM, enc: CONTENT_ENCRYPTION, kid: key.kid })
    .encrypt(publicKey);
}

/** A copy of `values` with each of `fields` that has a value replaced by its JWE. */
export async function encryptFields(
  values: Readonly<Record<string, unknown>>,
  fields: readonly string[],
  key: CredentialKey,
): Promise<Record<string, unknown>> {
  const result: Record<string, unknown> = { ...values };
  for (const field of fields) {
    if (result[field] !== undefined) result[field] = await encryptValue(result[field], key);
  }
  return result;
}
