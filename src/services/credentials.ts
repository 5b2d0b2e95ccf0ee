/**
 * Credential encryption: listed form fields leave the browser only as JWEs to the server's
 * one-time credential key, so a proxy or log in between never sees a password.
 */
import type { ApiClient } from './api-client.ts';
import { encryptCompactJwe, type RsaPublicJwk } from './compact-jwe.ts';

/** The server's credential key (GET crypto/rsa-public-key); the nonce is good for one submit. */
export interface CredentialKey {
  kid: string;
  jwk: RsaPublicJwk;
  nonce: string;
}

/** Fetches a fresh credential key; called for every submit because each nonce is single-use. */
export function fetchCredentialKey(api: ApiClient): Promise<CredentialKey> {
  return api.request<CredentialKey>({ method: 'GET', path: 'crypto/rsa-public-key' });
}

/** Encrypts one value as a compact JWE whose plaintext is the JSON `{"v": value, "n": nonce}`. */
export async function encryptValue(value: unknown, key: CredentialKey): Promise<string> {
  const plaintext = new TextEncoder().encode(JSON.stringify({ v: value, n: key.nonce }));
  return encryptCompactJwe(plaintext, key.jwk, { alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: key.kid });
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
