import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import crypto from 'node:crypto';
import type { Clock } from '../clock.ts';
import { LIMITS } from '../limits.ts';
import type { Database, Queryable } from '../db/database.ts';
import type { SecretBox } from './secret-box.ts';

/** What a key is for: encrypting credentials in the browser, or signing tokens. */
export type Purpose = 'credentials' | 'signing';

interface KeyRow {
  kid: string;
  private_jwk_encrypted: string;
  public_jwk: JWK;
  created_at: Date;
  retired_at: Date | null;
}

/** The public half of the current credential-encryption key, as the browser receives it. */
export interface CredentialPublicKey {
  kid: string;
  jwk: JWK;
}

/** Key material kept in the database (private halves sealed with the master key), shared by every server process. */
export interface KeyStore {
  /** The key browsers encrypt credentials to; rotated after LIMITS.CREDENTIAL_KEY_ROTATION. */
  currentCredentialKey(): Promise<CredentialPublicKey>;
  /** The private key for `kid` while it is current or within its grace period after retirement; else undefined. */
  credentialPrivateKey(kid: string): Promise<CryptoKey | undefined>;
  /** Private JWKs for signing tokens (one RSA key for RS256 and PS256, one P-256 key for ES256), newest first. */
  signingJwks(): Promise<JWK[]>;
  /**
   * The signing keys to serve now: the active key (first, so it signs), then the keys only to publish (marked for
   * verifying only): a new key before it activates, previous keys until every token they signed has expired.
   * `version` changes whenever that set does.
   */
  signingKeySet(): Promise<SigningKeySet>;
  /**
   * Adds a new key for `purpose` and retires the current one (which stays usable for its grace period); for
   * `signing`, one of every signing key type. Answers the new key ids.
   */
  rotate(purpose: Purpose): Promise<{ kids: string[] }>;
}

/** What oidc-provider's `jwks` should hold now, and an identity of that set. */
export interface SigningKeySet {
  version: string;
  jwks: JWK[];
}

/** Timing of signing-key rotation, in seconds. */
export interface SigningKeyTiming {
  /** A new key is published this long before it signs, so every process's JWKS lists it before any token uses it. */
  activationDelay: number;
  /** A replaced key stays published this long after it last signed (the longest lifetime of a signed token). */
  retention: number;
}

const CREDENTIAL_ALG = 'RSA-OAEP-256';

/** One kind of signing key: what it is (`kty`) and how one is made. */
interface SigningKeyType {
  kty: 'RSA' | 'EC';
  /** Set on the JWK when the key may serve one algorithm only; an RSA key serves RS256 and PS256 alike. */
  alg: string | undefined;
  generate(): Promise<{ privateKey: CryptoKey; publicKey: CryptoKey }>;
}

/**
 * Every signing key type, each kept current and rotated together: RSA signs RS256 (OpenID Connect's default, which
 * every client library expects) and PS256; P-256 signs ES256.
 */
export const SIGNING_KEY_TYPES: readonly SigningKeyType[] = [
  { kty: 'RSA', alg: undefined, generate: () => generateKeyPair('PS256', { modulusLength: LIMITS.SIGNING_RSA_KEY_BITS, extractable: true }) },
  { kty: 'EC', alg: 'ES256', generate: () => generateKeyPair('ES256', { extractable: true }) },
];
/**
 * How long a process trusts its cached view of a key's retirement before asking the database again. Another
 * process may rotate the key; a retired key stays valid for the whole grace period, so a minute of staleness is safe.
 */
const KEY_RECHECK_MS = 60_000;
/** Serialises key creation when several processes start together. */
const KEY_LOCK_ID = 72_050_002;

/** Creates the key store; keys are made on first use and cached per kid (they never change once made). */
export function createKeyStore(deps: { db: Database; box: SecretBox; clock: Clock; signingTiming?: SigningKeyTiming }): KeyStore {
  const { db, box, clock } = deps;
  const timing = deps.signingTiming ?? { activationDelay: LIMITS.KEY_REFRESH_INTERVAL, retention: LIMITS.SIGNING_KEY_RETENTION };
  const openPrivate = (row: KeyRow) => JSON.parse(box.open(row.private_jwk_encrypted, `key:${row.kid}`)) as JWK;
  const privateKeys = new Map<string, { key: CryptoKey; retiredAt: number | undefined; checkedAt: number }>();

  /** The current key for `purpose` (of signing key type `kty`, for signing). */
  async function newest(purpose: Purpose, kty?: string, from: Queryable = db): Promise<KeyRow | undefined> {
    const result = await from.query<KeyRow>(
      `select kid, private_jwk_encrypted, public_jwk, created_at, retired_at from keys
       where purpose = $1 and retired_at is null and ($2::text is null or public_jwk->>'kty' = $2) order by created_at desc limit 1`,
      [purpose, kty ?? null],
    );
    return result.rows[0];
  }

  async function create(purpose: Purpose, rotateAfterSeconds: number | undefined, type?: SigningKeyType): Promise<KeyRow> {
    return db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [KEY_LOCK_ID]);
      // Checked again under the lock: another process may have made the key meanwhile.
      const current = await newest(purpose, type?.kty, tx);
      if (current && (rotateAfterSeconds === undefined || !isOlderThan(current, rotateAfterSeconds))) return current;
      const alg = purpose === 'credentials' ? CREDENTIAL_ALG : type?.alg;
      const { privateKey, publicKey } =
        purpose === 'credentials' || type === undefined
          ? await generateKeyPair(CREDENTIAL_ALG, { modulusLength: LIMITS.CREDENTIAL_KEY_BITS, extractable: true })
          : await type.generate();
      const kid = crypto.randomUUID();
      const use = purpose === 'credentials' ? 'enc' : 'sig';
      const privateJwk = { ...(await exportJWK(privateKey)), kid, ...(alg ? { alg } : {}), use };
      const publicJwk = { ...(await exportJWK(publicKey)), kid, ...(alg ? { alg } : {}), use };
      const now = new Date(clock());
      if (current) await tx.query('update keys set retired_at = $1 where kid = $2', [now, current.kid]);
      await tx.query(
        'insert into keys (kid, purpose, private_jwk_encrypted, public_jwk, created_at) values ($1, $2, $3, $4, $5)',
        [kid, purpose, box.seal(JSON.stringify(privateJwk), `key:${kid}`), publicJwk, now],
      );
      return { kid, private_jwk_encrypted: '', public_jwk: publicJwk, created_at: now, retired_at: null };
    });
  }

  function isOlderThan(row: KeyRow, seconds: number): boolean {
    return clock() - new Date(row.created_at).getTime() > seconds * 1000;
  }

  /** Makes the signing keys of any type that has none yet (a new store, or one from before that type existed). */
  async function ensureSigningKeys(): Promise<void> {
    for (const type of SIGNING_KEY_TYPES) if (!(await newest('signing', type.kty))) await create('signing', undefined, type);
  }

  return {
    async currentCredentialKey() {
      let row = await newest('credentials');
      if (!row || isOlderThan(row, LIMITS.CREDENTIAL_KEY_ROTATION)) row = await create('credentials', LIMITS.CREDENTIAL_KEY_ROTATION);
      return { kid: row.kid, jwk: row.public_jwk };
    },
    async credentialPrivateKey(kid) {
      const now = clock();
      let entry = privateKeys.get(kid);
      if (!entry || now - entry.checkedAt > KEY_RECHECK_MS) {
        const result = await db.query<KeyRow>(
          "select kid, private_jwk_encrypted, public_jwk, created_at, retired_at from keys where purpose = 'credentials' and kid = $1",
          [kid],
        );
        const row = result.rows[0];
        if (!row) return undefined;
        const key = entry?.key ?? (await importJWK(JSON.parse(box.open(row.private_jwk_encrypted, `key:${kid}`)) as JWK, CREDENTIAL_ALG));
        if (key instanceof Uint8Array) throw new Error(`credential key ${kid} is not an asymmetric key`);
        entry = { key, retiredAt: row.retired_at ? new Date(row.retired_at).getTime() : undefined, checkedAt: now };
        privateKeys.set(kid, entry);
      }
      if (entry.retiredAt !== undefined && now - entry.retiredAt > LIMITS.CREDENTIAL_KEY_GRACE * 1000) return undefined;
      return entry.key;
    },
    async signingJwks() {
      await ensureSigningKeys();
      const result = await db.query<KeyRow>(
        "select kid, private_jwk_encrypted, public_jwk, created_at, retired_at from keys where purpose = 'signing' and retired_at is null order by created_at desc",
      );
      return result.rows.map(openPrivate);
    },
    async signingKeySet() {
      await ensureSigningKeys();
      const now = clock();
      // A key that was replaced still signed until its successor activated; it stays published `retention` after that.
      const result = await db.query<KeyRow>(
        `select kid, private_jwk_encrypted, public_jwk, created_at, retired_at from keys
         where purpose = 'signing' and (retired_at is null or retired_at > $1) order by created_at desc`,
        [new Date(now - (timing.activationDelay + timing.retention) * 1000)],
      );
      const activeAfter = now - timing.activationDelay * 1000;
      // Per key type, the newest key old enough to be in every process's JWKS signs; a brand-new store's first key
      // of a type signs at once.
      const active = SIGNING_KEY_TYPES.flatMap((type) => {
        const rows = result.rows.filter((row) => row.public_jwk.kty === type.kty);
        const signer = rows.find((row) => new Date(row.created_at).getTime() <= activeAfter) ?? rows[rows.length - 1];
        return signer ? [signer] : [];
      });
      // oidc-provider wants every key whole; `key_ops: ["verify"]` keeps it from signing with any but the active ones.
      const published = result.rows.filter((row) => !active.includes(row)).map((row) => ({ ...openPrivate(row), key_ops: ['verify'] }));
      const jwks = [...active.map(openPrivate), ...published];
      return { version: jwks.map((jwk) => jwk.kid).join(','), jwks };
    },
    async rotate(purpose) {
      // Any current key counts as due: a rotation always adds a key (of every signing key type).
      const types = purpose === 'signing' ? SIGNING_KEY_TYPES : [undefined];
      const kids: string[] = [];
      for (const type of types) kids.push((await create(purpose, Number.NEGATIVE_INFINITY, type)).kid);
      return { kids };
    },
  };
}
