import { compactDecrypt, decodeProtectedHeader } from 'jose';
import type { Clock } from '../clock.ts';
import type { KeyStore } from '../crypto/key-store.ts';
import type { Queryable } from '../db/database.ts';
import { consumeCredentialNonce } from '../store/credential-nonces.ts';
import { ApiError } from '../errors.ts';

const decoder = new TextDecoder();

async function openField(keys: Pick<KeyStore, 'credentialPrivateKey'>, jwe: unknown): Promise<{ value: string; nonce: string }> {
  if (typeof jwe !== 'string' || jwe.length > 4096) throw new ApiError('credentials.unreadable');
  const { kid } = decodeProtectedHeader(jwe);
  const key = typeof kid === 'string' ? await keys.credentialPrivateKey(kid) : undefined;
  if (!key) throw new ApiError('credentials.unreadable');
  const { plaintext } = await compactDecrypt(jwe, key, {
    keyManagementAlgorithms: ['RSA-OAEP-256'],
    contentEncryptionAlgorithms: ['A256GCM'],
  });
  const parsed = JSON.parse(decoder.decode(plaintext)) as { v?: unknown; n?: unknown };
  if (typeof parsed.v !== 'string' || typeof parsed.n !== 'string') throw new ApiError('credentials.unreadable');
  return { value: parsed.v, nonce: parsed.n };
}

/** A body whose encrypted fields are opened: their plaintexts, and the server nonce they all carry (none when none was sent). */
export interface OpenedFields {
  opened: Record<string, unknown>;
  nonce: string | undefined;
}

/**
 * Replaces each encrypted field of `body` with its plaintext, without using up the nonce they carry (the caller
 * must, before it acts on them). Every field must carry the same server nonce.
 */
export async function openFields(keys: Pick<KeyStore, 'credentialPrivateKey'>, body: Record<string, unknown>, fields: readonly string[]): Promise<OpenedFields> {
  const opened: Record<string, unknown> = { ...body };
  let nonce: string | undefined;
  try {
    for (const field of fields) {
      if (!(field in body)) continue;
      const result = await openField(keys, body[field]);
      if (nonce !== undefined && nonce !== result.nonce) throw new ApiError('credentials.unreadable');
      nonce = result.nonce;
      opened[field] = result.value;
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError('credentials.unreadable');
  }
  return { opened, nonce };
}

/**
 * Replaces each encrypted field of `body` with its plaintext. Every field must carry the same server nonce,
 * which is used up here, so a captured request cannot be replayed.
 */
export async function decryptFields(
  deps: { keys: Pick<KeyStore, 'credentialPrivateKey'>; db: Queryable; clock: Clock },
  body: Record<string, unknown>,
  fields: readonly string[],
): Promise<Record<string, unknown>> {
  if (fields.length === 0) return body;
  const { opened, nonce } = await openFields(deps.keys, body, fields);
  if (nonce !== undefined && !(await consumeCredentialNonce(deps.db, nonce, new Date(deps.clock())))) {
    throw new ApiError('credentials.unreadable');
  }
  return opened;
}
