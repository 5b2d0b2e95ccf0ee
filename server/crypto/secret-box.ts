import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { secretKey } from './secret-key.ts';

const KEY_FILE = 'master.key';
const VERSION = 'v1';

/** Encrypts secrets at rest (private keys, client secrets) with AES-256-GCM under the master key. */
export interface SecretBox {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
  /** Derives an independent key for another purpose (cookie signing, ...), so the master key is never reused directly. */
  derive(purpose: string): Buffer;
}

/** Reads MASTER_KEY, or outside production the key file in DATA_DIR, creating it (mode 0600) on first start. */
export function loadMasterKey(config: Pick<Config, 'masterKey' | 'dataDir'>): Buffer {
  if (config.masterKey !== undefined) return Buffer.from(config.masterKey, 'base64url');
  const file = path.join(config.dataDir, KEY_FILE);
  fs.mkdirSync(config.dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, crypto.randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64url');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key`);
  return key;
}

/** A SecretBox over `masterKey`; `context` is bound as associated data so a sealed value cannot be moved elsewhere. */
export function createSecretBox(masterKey: Buffer): SecretBox {
  const encryptionKey = secretKey(Buffer.from(crypto.hkdfSync('sha256', masterKey, Buffer.alloc(0), 'secret-box', 32)));
  return {
    seal(plaintext, context) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', encryptionKey, iv);
      cipher.setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${VERSION}.${iv.toString('base64url')}.${body.toString('base64url')}`;
    },
    open(sealed, context) {
      const [version, ivText, bodyText] = sealed.split('.');
      if (version !== VERSION || ivText === undefined || bodyText === undefined) throw new Error('unrecognised sealed value');
      const body = Buffer.from(bodyText, 'base64url');
      const decipher = crypto.createDecipheriv('aes-256-gcm', encryptionKey, Buffer.from(ivText, 'base64url'));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(body.subarray(body.length - 16));
      return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString('utf8');
    },
    derive(purpose) {
      return Buffer.from(crypto.hkdfSync('sha256', masterKey, Buffer.alloc(0), purpose, 32));
    },
  };
}
