/**
 * The flag cache: 30 minutes in localStorage, encrypted with AES-GCM (WebCrypto) and checksummed
 * with SHA-256 (spec, section 9). An entry that fails to decrypt, fails its checksum or has expired is
 * discarded. Flags are not secret and the server enforces every one of them; the encryption keeps the
 * cached values from being read or edited casually, and the checksum catches a corrupted or altered
 * entry, so the app never acts on one.
 */
import type { Flags } from '../../../contract/conditions.ts';

/** What the cache needs from outside, so tests can pass a fake clock and storage. */
export interface FlagCacheOptions {
  storageKey: string;
  ttlMs: number;
  now?: () => number;
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  subtle?: SubtleCrypto;
  random?: (bytes: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer>;
}

/** Reads and writes the cached flags. */
export interface FlagCache {
  /** The cached flags, or undefined when there are none usable. */
  read(): Promise<Flags | undefined>;
  write(flags: Flags): Promise<void>;
}

interface StoredEntry {
  iv: string;
  data: string;
  checksum: string;
}

interface CachedFlags {
  flags: Flags;
  expires: number;
}

const toBase64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string): Uint8Array<ArrayBuffer> => Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
const toHex = (buffer: ArrayBuffer): string => [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, '0')).join('');

const isFlags = (value: unknown): value is Flags =>
  value !== null && typeof value === 'object' && Object.values(value).every((on) => typeof on === 'boolean');

/** Creates the cache over localStorage (or the given storage). */
export function createFlagCache(options: FlagCacheOptions): FlagCache {
  const now = options.now ?? Date.now;
  const storage = options.storage ?? (typeof localStorage === 'undefined' ? undefined : localStorage);
  const subtle = options.subtle ?? globalThis.crypto?.subtle;
  const random = options.random ?? ((bytes) => crypto.getRandomValues(bytes));
  const keyName = `${options.storageKey}.key`;

  const discard = (): undefined => {
    storage?.removeItem(options.storageKey);
    return undefined;
  };

  /** The cache's AES key, made on first use and kept beside the entries. */
  const aesKey = async (create: boolean): Promise<CryptoKey | undefined> => {
    if (!subtle || !storage) return undefined;
    let raw = storage.getItem(keyName);
    if (!raw) {
      if (!create) return undefined;
      raw = toBase64(random(new Uint8Array(32)));
      storage.setItem(keyName, raw);
    }
    return subtle.importKey('raw', fromBase64(raw), 'AES-GCM', false, ['encrypt', 'decrypt']);
  };

  const checksum = async (plain: Uint8Array<ArrayBuffer>): Promise<string> => toHex(await (subtle as SubtleCrypto).digest('SHA-256', plain));

  return {
    async read() {
      try {
        const stored = storage?.getItem(options.storageKey);
        const key = stored ? await aesKey(false) : undefined;
        if (!stored || !key || !subtle) return undefined;
        const entry = JSON.parse(stored) as StoredEntry;
        const plain = new Uint8Array(await subtle.decrypt({ name: 'AES-GCM', iv: fromBase64(entry.iv) }, key, fromBase64(entry.data)));
        if ((await checksum(plain)) !== entry.checksum) return discard();
        const cached = JSON.parse(new TextDecoder().decode(plain)) as CachedFlags;
        if (!isFlags(cached.flags) || typeof cached.expires !== 'number' || cached.expires <= now()) return discard();
        return cached.flags;
      } catch {
        // Not JSON, not ours, or altered: AES-GCM refuses to decrypt it.
        return discard();
      }
    },
    async write(flags) {
      try {
        const key = await aesKey(true);
        if (!key || !subtle || !storage) return;
        const plain = new TextEncoder().encode(JSON.stringify({ flags, expires: now() + options.ttlMs } satisfies CachedFlags));
        const iv = random(new Uint8Array(12));
        const data = new Uint8Array(await subtle.encrypt({ name: 'AES-GCM', iv }, key, plain));
        const entry: StoredEntry = { iv: toBase64(iv), data: toBase64(data), checksum: await checksum(plain) };
        storage.setItem(options.storageKey, JSON.stringify(entry));
      } catch {
        // Private mode or a full quota only costs a fetch next time.
      }
    },
  };
}
