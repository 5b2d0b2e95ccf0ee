/**
 * A compact JWE (RFC 7516) under RSA-OAEP-256 key wrapping and A256GCM content encryption, built on the
 * browser's own WebCrypto: both primitives are native there, so the login screen ships no JOSE library.
 * The server reads it with jose's compactDecrypt, unchanged.
 */

/** A public RSA key as a JWK, as the server publishes it. */
export interface RsaPublicJwk {
  kty?: string;
  n?: string;
  e?: string;
  kid?: string;
  alg?: string;
  use?: string;
}

/** The JOSE header of every credential JWE, in the order it is serialised. */
export interface CredentialJweHeader {
  alg: 'RSA-OAEP-256';
  enc: 'A256GCM';
  kid: string;
}

/** RFC 7518 §5.3: a 96-bit initialisation vector; the 128-bit tag WebCrypto appends to the ciphertext. */
const IV_BYTES = 12;
const TAG_BYTES = 16;
const CEK_BITS = 256;

function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function importRsaOaep256(jwk: RsaPublicJwk): Promise<CryptoKey> {
  const { kty, n, e } = jwk;
  return crypto.subtle.importKey('jwk', { kty, n, e, alg: 'RSA-OAEP-256', ext: true }, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
}

/** Encrypts `plaintext` to `jwk`: a fresh content key per message, wrapped with RSA-OAEP-256; the header is the AAD. */
export async function encryptCompactJwe(plaintext: Uint8Array, jwk: RsaPublicJwk, header: CredentialJweHeader): Promise<string> {
  const encoder = new TextEncoder();
  const encodedHeader = base64Url(encoder.encode(JSON.stringify(header)));
  const contentKey = await crypto.subtle.generateKey({ name: 'AES-GCM', length: CEK_BITS }, true, ['encrypt']);
  const rawContentKey = new Uint8Array(await crypto.subtle.exportKey('raw', contentKey));
  const wrappedKey = new Uint8Array(await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, await importRsaOaep256(jwk), rawContentKey));
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: encoder.encode(encodedHeader), tagLength: TAG_BYTES * 8 },
      contentKey,
      new Uint8Array(plaintext),
    ),
  );
  const ciphertext = sealed.subarray(0, sealed.length - TAG_BYTES);
  const tag = sealed.subarray(sealed.length - TAG_BYTES);
  return [encodedHeader, base64Url(wrappedKey), base64Url(iv), base64Url(ciphertext), base64Url(tag)].join('.');
}
