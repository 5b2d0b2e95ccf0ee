/**
 * What production refuses beyond a missing setting: weak settings that would work, and so would go unnoticed. Each
 * refusal names the setting and the fix.
 */
import type { Queryable } from './db/database.ts';
import { ConfigError } from './config-readers.ts';

/** A random 32-byte key has about 28 distinct byte values; fewer than this is a made-up key (all zeros, a pattern). */
const MIN_DISTINCT_KEY_BYTES = 16;

const GENERATE_KEY = `node -e "console.log(require('node:crypto').randomBytes(32).toString('base64url'))"`;

/** MASTER_KEY (base64url, already checked for shape) must look random: not all zeros, not a short repeated pattern. */
export function checkMasterKeyEntropy(masterKey: string): void {
  const bytes = Buffer.from(masterKey, 'base64url');
  if (new Set(bytes).size < MIN_DISTINCT_KEY_BYTES) {
    throw new ConfigError(`MASTER_KEY has too little entropy for production (a made-up key such as all zeros): generate one with ${GENERATE_KEY}`);
  }
}

/** PUBLIC_URL must be https in production: cookies are Secure and passkeys need a secure origin. */
export function checkPublicUrlIsHttps(publicUrl: string): void {
  if (!publicUrl.startsWith('https://')) {
    throw new ConfigError(`PUBLIC_URL must use https:// in production (got "${publicUrl}"): serve the product over TLS, at a proxy if need be`);
  }
}

/**
 * SMTP credentials go only over TLS in production: `smtps://` (TLS from the start), or `smtp://` with
 * `?requireTLS=true` (STARTTLS required). Plain `smtp://` would send the password in the clear to anyone on the path
 * who strips the STARTTLS offer.
 */
export function checkSmtpTls(smtpUrl: string): void {
  const url = new URL(smtpUrl);
  const hasCredentials = url.username !== '' || url.password !== '';
  if (hasCredentials && url.protocol === 'smtp:' && url.searchParams.get('requireTLS') !== 'true') {
    throw new ConfigError('SMTP_URL sends its credentials without TLS: use smtps://… (port 465), or add ?requireTLS=true to require STARTTLS');
  }
}

/** SEED_DEMO puts a user with a published password into the database: never in production. */
export function checkNoDemoSeeding(seedDemo: boolean): void {
  if (seedDemo) throw new ConfigError('SEED_DEMO must be off in production: the demo user has a published password; unset SEED_DEMO');
}

/**
 * A production database must not hold what the demo seeds: the demo user (whose password is published) or a client
 * app redirecting to the demo's `/demo/` paths. Throws naming what to disable or delete.
 */
export async function checkNoDemoData(db: Queryable, demoEmail: string): Promise<void> {
  const user = await db.query<{ email: string }>('select email from users where email_normalized = $1 and disabled_at is null', [demoEmail.toLowerCase()]);
  const clients = await db.query<{ client_id: string }>(
    "select client_id from clients where exists (select 1 from unnest(redirect_uris) as uri where uri ~ '^https?://[^/]+/demo/')",
  );
  const problems = [
    ...(user.rows.length > 0 ? [`SEED_DEMO: the database holds the demo user ${demoEmail}, whose password is published: disable it (npm run sso -- user disable ${demoEmail}) before starting in production`] : []),
    ...clients.rows.map((row) => `SEED_DEMO: the database holds the demo client ${row.client_id} (a /demo/ redirect): delete it (delete from clients where client_id = '${row.client_id}') before starting in production`),
  ];
  if (problems.length > 0) throw new ConfigError(problems);
}
