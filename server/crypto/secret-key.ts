import crypto, { type KeyObject } from 'node:crypto';

/**
 * `bytes` as a KeyObject, made once where a key is loaded. Node's createHmac, createCipheriv and createDecipheriv
 * find out whether a key is a KeyObject by trying to read its internal slots and catching the failure, so every call
 * with a Buffer key throws and catches an error (about 15 µs of CPU each, several per sign-in); a KeyObject skips it.
 */
export function secretKey(bytes: Buffer): KeyObject {
  return crypto.createSecretKey(bytes);
}
