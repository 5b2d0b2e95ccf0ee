import path from 'node:path';
import { APP_NAME } from '../contract/product.ts';
import { parseTrustProxy, type TrustProxy } from './web/trust-proxy.ts';

/**
 * Every limit the server enforces, in one place. Times are in seconds unless the name says otherwise.
 * Changing a value here changes it everywhere; nothing else hard-codes these numbers.
 */
export const LIMITS = {
  /** Lifetime of an authorization code; RFC 6749 recommends at most 10 minutes, we keep it short. */
  AUTHORIZATION_CODE_TTL: 60,
  /** How long a sign-in transaction (one oidc-provider interaction) may take from start to finish. */
  TRANSACTION_TTL: 30 * 60,
  /** How long a finished sign-in is remembered (by its interaction id), so Back to one of its steps says "You're signed in". */
  FINISHED_SIGN_IN_TTL: 24 * 3600,
  /** How long a nonce handed out with the credential-encryption key may be used. */
  CREDENTIAL_NONCE_TTL: 5 * 60,
  /** The credential-encryption key is replaced after this long... */
  CREDENTIAL_KEY_ROTATION: 30 * 24 * 3600,
  /** ...and the previous one is still accepted this long, so a page loaded just before rotation still works. */
  CREDENTIAL_KEY_GRACE: 24 * 3600,
  /** RSA modulus for the credential-encryption key (RSA-OAEP SHA-256); 2048 is NIST's floor through 2030 and keeps decryption ~1 ms. */
  CREDENTIAL_KEY_BITS: 2048,
  ACCESS_TOKEN_TTL: 10 * 60,
  ID_TOKEN_TTL: 10 * 60,
  /**
   * How often each process re-reads the signing keys from the database (seconds), and how long a new key is
   * published before it signs; so a rotated key signs on every process within two of these. KEY_REFRESH_SECONDS
   * overrides it (tests).
   */
  KEY_REFRESH_INTERVAL: 30,
  /** A replaced signing key stays in the JWKS this long after it last signed: the longest lifetime of a signed token (the ID token). */
  SIGNING_KEY_RETENTION: 10 * 60,
  /** A refresh token lives this long unless it is used (then it is replaced) or its sign-in session ends first. */
  REFRESH_TOKEN_TTL: 14 * 24 * 3600,
  /** The provider's browser session, which lets a second client app skip the password. */
  SESSION_TTL: 8 * 3600,
  /** Argon2id parameters: OWASP's first recommended profile (m=19 MiB, t=2, p=1). */
  ARGON2_MEMORY_KIB: 19456,
  ARGON2_TIME_COST: 2,
  ARGON2_PARALLELISM: 1,
  /** The longest password we accept; long passphrases are welcome, megabyte bodies are not. */
  PASSWORD_MAX_LENGTH: 256,
  /** Largest JSON body any endpoint accepts. */
  REQUEST_BODY_MAX_BYTES: 16 * 1024,
  /** A one-time code (password reset, email verification) is valid this long. */
  ONE_TIME_CODE_TTL: 10 * 60,
  /** Wrong codes allowed per account and purpose before every outstanding code of that purpose dies. */
  ONE_TIME_CODE_MAX_FAILURES: 5,
  /** ...counted across every code issued in this window (from the first wrong code), so a new code buys no new guesses. */
  ONE_TIME_CODE_FAILURE_WINDOW: 3600,
  /** Password-reset emails sent per account per hour at most; further requests are answered the same, silently. */
  RESET_EMAILS_PER_HOUR: 3,
  /** The wait the code screen counts down before offering another reset code, as the second factor's resend does. */
  RESET_RESEND_COOLDOWN: 60,
  /** A reset request is answered no sooner than this, known email or not, so timing reveals nothing (ms). */
  RESET_RESPONSE_FLOOR_MS: 250,
  /** A sign-up waiting for its email code lives as long as the sign-in it belongs to. */
  REGISTRATION_TTL: 30 * 60,
  /** The wait before another registration code may be sent to the same sign-up (the screen counts it down). */
  REGISTRATION_RESEND_COOLDOWN: 60,
  /** Registration emails (codes, or warnings to an existing owner) per address per hour at most; more are answered the same, silently. */
  REGISTRATION_EMAILS_PER_HOUR: 5,
  /** A sign-up is answered no sooner than this, new address or existing account, so timing reveals nothing (ms). */
  REGISTRATION_RESPONSE_FLOOR_MS: 500,
  /** Failed sign-ins an account may have before each further attempt must wait. */
  LOGIN_FAILURES_BEFORE_DELAY: 5,
  /** The first wait; it doubles with each further failure... */
  LOGIN_DELAY_BASE: 1,
  /** ...up to this. The wait lifts by itself. */
  LOGIN_DELAY_MAX: 15 * 60,
  /**
   * A failure count (an account's or an unknown address's) with no failure for this long is forgotten, so the table of
   * unknown addresses cannot grow without end; both kinds are forgotten alike, so neither tells which exists.
   */
  LOGIN_FAILURES_FORGOTTEN_AFTER: 30 * 24 * 3600,
  /**
   * Sign-in attempts one IP address may make per window, across all accounts (well above a person's typos). Past it
   * the address is slowed, not blocked: only accounts without a failure in the window get their password checked.
   */
  IP_FAILURES_PER_WINDOW: 50,
  IP_FAILURE_WINDOW: 15 * 60,
  /** A password older than this must be changed at the next sign-in. */
  PASSWORD_MAX_AGE: 365 * 24 * 3600,
  /** How often each server process deletes expired transactions, nonces and provider rows. */
  CLEANUP_INTERVAL: 10 * 60,
  /** An emailed invitation link can be accepted this long; after that the invited person asks for a fresh one. */
  INVITATION_TTL: 7 * 24 * 3600,
  /** Client info is cached by browsers this long (spec, section 9). */
  CLIENT_INFO_MAX_AGE: 24 * 3600,
  /** The wait before another second-factor code may be sent by the same channel (the screen counts it down). */
  MFA_RESEND_COOLDOWN: 60,
  /** Second-factor codes (email or SMS) sent to one account per hour at most; further requests send nothing. */
  MFA_CODES_PER_HOUR: 6,
  /** TOTP (RFC 6238): 30-second steps, 6 digits, SHA-1, as every authenticator app expects. */
  TOTP_PERIOD: 30,
  TOTP_DIGITS: 6,
  /** Steps accepted either side of now, for clock drift between phone and server. */
  TOTP_WINDOW: 1,
  /** Bytes of a TOTP secret (160 bits, RFC 4226's recommendation). */
  TOTP_SECRET_BYTES: 20,
  /** Wrong authenticator codes allowed before the factor rests for TOTP_LOCKOUT. */
  TOTP_MAX_FAILURES: 5,
  TOTP_LOCKOUT: 15 * 60,
  /** The Retry-After of a 503 (the database or a provider out of reach), and of any 429 without a wait of its own. */
  UNAVAILABLE_RETRY_AFTER: 5,
  /** The longest a request waits for a database connection before it is answered 503 (ms). */
  DATABASE_CONNECT_TIMEOUT_MS: 3_000,
  /** How long a lost LISTEN connection (cache invalidation) waits before reconnecting; caches bypass meanwhile. */
  DATABASE_LISTEN_RETRY_MS: 1_000,
  /** How often each process re-reads FEATURE_FLAGS_FILE (seconds), so an edit takes effect without a restart. */
  FLAGS_REFRESH_INTERVAL: 30,
  /** How often each server process looks for mail and texts due in the outbox (ms); a new message is tried at once. */
  OUTBOX_POLL_INTERVAL_MS: 2_000,
  /** A process claiming a message may take this long to send it before another process may try (seconds). */
  OUTBOX_LEASE: 60,
  /** The wait after a failed send; it doubles with each failure... */
  OUTBOX_RETRY_BASE: 5,
  /** ...up to this (seconds). */
  OUTBOX_RETRY_MAX: 15 * 60,
  /** Sends tried before a message is given up (with the back-off above, about a day). */
  OUTBOX_MAX_ATTEMPTS: 100,
  /** On shutdown the outbox worker keeps sending what is due for at most this long (ms). */
  OUTBOX_FLUSH_MS: 5_000,
  /** Messages one process claims at a time. */
  OUTBOX_BATCH: 20,
  /** A sent or given-up message is deleted this long after (seconds). */
  OUTBOX_KEEP_SENT: 24 * 3600,
  /** An SMTP server must connect, greet and answer within this long (ms), inside OUTBOX_LEASE. */
  SMTP_TIMEOUT_MS: 30_000,
  /** An HTTP SMS provider must answer within this long (ms). */
  SMS_PROVIDER_TIMEOUT_MS: 5000,
  /** How long the bot-check service may take to verify a token before the check counts as failed (ms). */
  BOT_CHECK_VERIFY_TIMEOUT_MS: 5_000,
  /** On SIGTERM, requests already in flight get this long to finish before their connections are cut (ms). */
  SHUTDOWN_DRAIN_MS: 10_000,
  /** ...then each background worker (cleanup, outbox, refreshers) gets this long to stop or flush (ms). */
  SHUTDOWN_HOOK_MS: 5_000,
  /** Password hashes (argon2id) running at once: libuv's thread pool size, which they share with file I/O. */
  ARGON2_CONCURRENCY: 4,
  /** Password hashes that may wait for a slot; one more is answered 503 with Retry-After, never queued. */
  ARGON2_MAX_WAITING: 64,
  /** Mean event-loop delay (over one reading) past which new requests are answered 503 with Retry-After (ms). */
  MAX_EVENT_LOOP_DELAY_MS: 1_000,
  /** How often the event-loop delay is read (ms)... */
  EVENT_LOOP_SAMPLE_MS: 1_000,
  /** ...and how many readings in a row past MAX_EVENT_LOOP_DELAY_MS make the server refuse new requests. */
  EVENT_LOOP_OVERLOAD_READINGS: 2,
  /** The Retry-After of an overload 503: a moment, since the queue drains in milliseconds. */
  OVERLOAD_RETRY_AFTER: 2,
  /** Adding or removing a second factor on the account page needs one proven this recently (step-up). */
  ACCOUNT_STEP_UP_TTL: 5 * 60,
  /** Recovery codes made at once; each has RECOVERY_CODE_LENGTH base32 characters (5 bits each, 60 bits). */
  RECOVERY_CODE_COUNT: 10,
  RECOVERY_CODE_LENGTH: 12,
  /** The account page warns when this many recovery codes or fewer are left. */
  RECOVERY_CODES_LOW: 2,
  /** How long a passkey's WebAuthn challenge may be answered (adding one, or signing in with one): 5 minutes, used once. */
  PASSKEY_CHALLENGE_TTL: 5 * 60,
  /** A label a person gives a second factor, at most this many characters. */
  FACTOR_LABEL_MAX: 60,
  /** Security events shown at most in one listing (the account page's activity, an operator's `user show`). */
  SECURITY_EVENTS_LISTED: 50,
  /** The longest user agent kept with a security event; longer ones are cut (they are only ever shown). */
  SECURITY_EVENT_USER_AGENT_MAX: 512,
  /** The largest detail (serialised JSON, characters) a security event carries. */
  SECURITY_EVENT_DETAIL_MAX: 2000,
  /** How long the "This wasn't me" link of a security notice works. */
  NOT_ME_LINK_TTL: 7 * 24 * 3600,
  /** How long a browser is remembered as one that signed in to an account (its cookie's lifetime). */
  KNOWN_BROWSER_TTL: 400 * 24 * 3600,
  /** How long "Don't ask for a code on this device" lasts (the trusted-browser cookie's lifetime): 30 days. */
  TRUSTED_DEVICE_TTL: 30 * 24 * 3600,
} as const;

/** The server's configuration, read once from the environment at start. */
export interface Config {
  /** `development` seeds demo data and exposes developer aids; `production` refuses to start without real secrets. */
  readonly env: 'development' | 'production' | 'test';
  readonly host: string;
  readonly port: number;
  /** The issuer and the base of every link the server builds; never taken from request headers. */
  readonly publicUrl: string;
  /** Where the embedded database, keys and the admin token live. */
  readonly dataDir: string;
  /** A PostgreSQL URL; when absent the embedded PGlite database in `dataDir` is used. */
  readonly databaseUrl: string | undefined;
  /** 32 bytes, base64url: encrypts secrets at rest. Generated into `dataDir` outside production. */
  readonly masterKey: string | undefined;
  /** Google Tag Manager container id answered by `GET /api/gaid`; none means tracking stays off. */
  readonly gtmId: string | undefined;
  /** `smtp://user:pass@host:port` or `smtps://…`: mail goes out over SMTP. Without it, mail lands in the dev outbox. */
  readonly smtpUrl: string | undefined;
  /** The From address of every email. */
  readonly mailFrom: string;
  /** Seed the spec's two clients and a demo user (on by default in development). */
  readonly seedDemo: boolean;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** The JSON file of feature flags the server enforces (and serves to the browser in development). */
  readonly featureFlagsFile: string | undefined;
  /** Every user must have a second factor: one without sets one up at the next sign-in. On by default (payments). */
  readonly mfaRequired: boolean;
  /** An HTTP SMS provider (POST JSON { from, to, text } with a bearer token); without it, SMS land in the dev outbox. */
  readonly sms: { readonly providerUrl: string | undefined; readonly providerToken: string | undefined; readonly sender: string };
  /** The bot-check (Cloudflare Turnstile) secret; set, steps marked `botCheck` require a verified token. */
  readonly botCheckSecret: string | undefined;
  /** Where tokens are verified (Turnstile's siteverify, or a local verifier in tests). */
  readonly botCheckVerifyUrl: string;
  /** The error-reporting DSN the web app was built with (VITE_SENTRY_DSN): its host is allowed in the page policy. */
  readonly errorReportingDsn: string | undefined;
  /** The authorization the development flag service (`/dev/flag-service`) expects; the web app's flag client id. */
  readonly flagServiceToken: string;
  /** Which proxies' X-Forwarded-For to believe (Fastify's trustProxy): none, a hop count, or their addresses. */
  readonly trustProxy: TrustProxy;
  /** Apply pending migrations at start; off, the server refuses to start on a database `npm run migrate` has not brought up to date. */
  readonly migrateOnStart: boolean;
  /** Where Prometheus scrapes `/metrics`: a port of its own (never the public one); undefined keeps metrics off. */
  readonly metrics: { readonly host: string; readonly port: number } | undefined;
  /** How often signing keys are re-read from the database, in seconds (LIMITS.KEY_REFRESH_INTERVAL unless set). */
  readonly keyRefreshSeconds: number;
  /** The operator's user guide behind "Can't Log In or Register?"; undefined shows the built-in help page at /auth/help. */
  readonly helpUrl: string | undefined;
}

/** The product's name, the first half of an authenticator app entry's issuer. */
export const PRODUCT_NAME = 'Payments Network';

/** Thrown for bad environment variables: `problems` has one line per mistake, each naming its variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  /** One line per mistake. */
  readonly problems: readonly string[];
  constructor(problems: string | readonly string[]) {
    const lines = typeof problems === 'string' ? [problems] : problems;
    // One line all the same, for logs and error reports that show only the message; the boot prints `problems`, one a line.
    super(lines.join('; '));
    this.problems = lines;
  }
}

type Env = Readonly<Record<string, string | undefined>>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function readEnvironment(env: Env): Config['env'] {
  const value = env.NODE_ENV ?? 'development';
  if (value === 'development' || value === 'production' || value === 'test') return value;
  throw new ConfigError(`NODE_ENV must be development, production or test (got "${value}")`);
}

function readPort(env: Env, name = 'PORT', fallback = '8080'): number {
  const raw = env[name] ?? fallback;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`${name} must be a whole number from 0 to 65535 (got "${raw}")`);
  }
  return port;
}

function readHost(env: Env, name: string): string {
  const host = env[name] ?? '127.0.0.1';
  if (!/^[A-Za-z0-9.:-]+$/.test(host)) throw new ConfigError(`${name} must be a host name or IP address (got "${host}")`);
  return host;
}

function readTrustProxy(env: Env): TrustProxy {
  const parsed = parseTrustProxy(env.TRUST_PROXY);
  if ('problem' in parsed) throw new ConfigError(parsed.problem);
  return parsed.value;
}

function readMetrics(env: Env, port: number): Config['metrics'] {
  const host = readHost(env, 'METRICS_HOST');
  if (!env.METRICS_PORT) return undefined;
  const metricsPort = readPort(env, 'METRICS_PORT');
  if (metricsPort !== 0 && metricsPort === port) throw new ConfigError(`METRICS_PORT must differ from PORT: metrics are never served on the public port (got ${metricsPort})`);
  return { host, port: metricsPort };
}

/**
 * Runs each setting's reader and collects every ConfigError, so one start reports every mistake (one line each)
 * instead of one per attempt.
 */
function createProblemCollector() {
  const problems: string[] = [];
  return {
    read<T>(reader: () => T, fallback: T): T {
      try {
        return reader();
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        problems.push(...error.problems);
        return fallback;
      }
    },
    check(reader: () => void): void {
      this.read(reader, undefined);
    },
    problems: () => problems,
  };
}

function readUrl(name: string, raw: string, protocols: readonly string[]): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL (got "${raw}")`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')} (got "${raw}")`);
  }
  return url;
}

function readPublicUrl(env: Env, host: string, port: number): string {
  const fallbackHost = host === '127.0.0.1' || host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  const raw = env.PUBLIC_URL ?? `http://${fallbackHost}:${port}`;
  const url = readUrl('PUBLIC_URL', raw, ['http:', 'https:']);
  if (url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) {
    throw new ConfigError(`PUBLIC_URL must be an origin such as https://sso.example.com, without a path (got "${raw}")`);
  }
  return url.origin;
}

/** HELP_URL: an absolute web address (https in production), or undefined for the built-in help page. */
function readHelpUrl(env: Env, mode: Config['env']): string | undefined {
  const raw = env.HELP_URL || undefined;
  if (raw === undefined) return undefined;
  return readUrl('HELP_URL', raw, mode === 'production' ? ['https:'] : ['http:', 'https:']).href;
}

function readMasterKey(env: Env, mode: Config['env']): string | undefined {
  const raw = env.MASTER_KEY;
  if (raw === undefined || raw === '') {
    if (mode === 'production') throw new ConfigError('MASTER_KEY is required in production (32 random bytes, base64url)');
    return undefined;
  }
  if (!/^[A-Za-z0-9_-]{43}=?$/.test(raw)) {
    throw new ConfigError('MASTER_KEY must be 32 bytes encoded as base64url (43 characters)');
  }
  return raw;
}

function readBoolean(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false (got "${raw}")`);
}

function readSeconds(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1 || value > 3600) throw new ConfigError(`${name} must be a whole number of seconds from 1 to 3600 (got "${raw}")`);
  return value;
}

/** Reads and checks the environment; throws one ConfigError listing every bad variable, one line each. */
export function loadConfig(env: Env = process.env): Config {
  const collector = createProblemCollector();
  const { read, check } = { read: collector.read.bind(collector), check: collector.check.bind(collector) };
  const mode = read(() => readEnvironment(env), 'development');
  const host = read(() => readHost(env, 'HOST'), '127.0.0.1');
  const port = read(() => readPort(env), 8080);
  const masterKey = read(() => readMasterKey(env, mode), undefined);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl !== undefined) check(() => readUrl('DATABASE_URL', databaseUrl, ['postgres:', 'postgresql:']));
  const logLevel = (env.LOG_LEVEL ?? (mode === 'test' ? 'silent' : 'info')) as Config['logLevel'];
  check(() => {
    if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  });
  const smtpUrl = env.SMTP_URL || undefined;
  if (smtpUrl !== undefined) check(() => readUrl('SMTP_URL', smtpUrl, ['smtp:', 'smtps:']));
  check(() => {
    if (smtpUrl === undefined && mode === 'production') throw new ConfigError('SMTP_URL is required in production (the dev outbox is for development only)');
  });
  const mailFrom = env.MAIL_FROM ?? 'Payments Network Sign-In <no-reply@localhost>';
  check(() => {
    if (!/^[^\r\n]*<?[^\s@<>]+@[^\s@<>]+>?$/.test(mailFrom)) throw new ConfigError(`MAIL_FROM must be an email address, optionally with a name (got "${mailFrom}")`);
  });
  const smsProviderUrl = env.SMS_PROVIDER_URL || undefined;
  if (smsProviderUrl !== undefined) check(() => readUrl('SMS_PROVIDER_URL', smsProviderUrl, mode === 'production' ? ['https:'] : ['http:', 'https:']));
  const smsProviderToken = env.SMS_PROVIDER_TOKEN || undefined;
  check(() => {
    if (smsProviderUrl !== undefined && smsProviderToken === undefined) throw new ConfigError('SMS_PROVIDER_TOKEN is required with SMS_PROVIDER_URL');
  });
  const gtmId = env.GTM_ID || undefined;
  check(() => {
    if (gtmId !== undefined && !/^GTM-[A-Z0-9]+$/.test(gtmId)) throw new ConfigError(`GTM_ID must look like GTM-XXXXXXX (got "${gtmId}")`);
  });
  const publicUrl = read(() => readPublicUrl(env, host, port), 'http://localhost');
  const seedDemo = read(() => readBoolean('SEED_DEMO', env.SEED_DEMO, mode === 'development'), false);
  const mfaRequired = read(() => readBoolean('MFA_REQUIRED', env.MFA_REQUIRED, true), true);
  const botCheckVerifyUrl = read(
    () => readUrl('BOT_CHECK_VERIFY_URL', env.BOT_CHECK_VERIFY_URL || 'https://challenges.cloudflare.com/turnstile/v0/siteverify', ['http:', 'https:']).href,
    '',
  );
  const trustProxy = read(() => readTrustProxy(env), false);
  const migrateOnStart = read(() => readBoolean('MIGRATE_ON_START', env.MIGRATE_ON_START, true), true);
  const metrics = read(() => readMetrics(env, port), undefined);
  const keyRefreshSeconds = read(() => readSeconds('KEY_REFRESH_SECONDS', env.KEY_REFRESH_SECONDS, LIMITS.KEY_REFRESH_INTERVAL), LIMITS.KEY_REFRESH_INTERVAL);
  const helpUrl = read(() => readHelpUrl(env, mode), undefined);
  if (collector.problems().length > 0) throw new ConfigError(collector.problems());
  return {
    env: mode,
    host,
    port,
    publicUrl,
    dataDir: path.resolve(env.DATA_DIR ?? '.data'),
    databaseUrl,
    masterKey,
    gtmId,
    smtpUrl,
    mailFrom,
    seedDemo,
    logLevel,
    featureFlagsFile: env.FEATURE_FLAGS_FILE ? path.resolve(env.FEATURE_FLAGS_FILE) : undefined,
    mfaRequired,
    sms: { providerUrl: smsProviderUrl, providerToken: smsProviderToken, sender: env.SMS_SENDER || 'PaymentsSSO' },
    flagServiceToken: env.FLAG_SERVICE_TOKEN || APP_NAME,
    errorReportingDsn: env.VITE_SENTRY_DSN || undefined,
    botCheckSecret: env.BOT_CHECK_SECRET || undefined,
    botCheckVerifyUrl,
    trustProxy,
    migrateOnStart,
    metrics,
    keyRefreshSeconds,
    helpUrl,
  };
}

/** One environment variable the server reads: its name, its default in words, and what it sets. */
export interface EnvironmentVariable {
  readonly name: string;
  readonly default: string;
  readonly meaning: string;
}

/**
 * Every variable `loadConfig` reads, documented once: docs/configuration.md is generated from this
 * table (npm run docs:generate), and a test fails when `loadConfig` reads a variable not listed here.
 */
export const ENVIRONMENT_VARIABLES: readonly EnvironmentVariable[] = [
  { name: 'NODE_ENV', default: '`development`', meaning: '`development`, `production` or `test`. `production` refuses to start without `MASTER_KEY` and `SMTP_URL` and mounts neither the dev outbox nor the development flag service' },
  { name: 'HOST', default: '`127.0.0.1`', meaning: 'interface to listen on' },
  { name: 'PORT', default: '`8080`', meaning: 'port to listen on (0 to 65535)' },
  { name: 'PUBLIC_URL', default: '`http://localhost:$PORT`', meaning: 'the origin users and client apps see, without a path: the OIDC issuer and the base of every link. Never taken from request headers' },
  { name: 'DATA_DIR', default: '`./.data`', meaning: "the embedded database, the development master key and the CLI's admin file" },
  { name: 'DATABASE_URL', default: 'unset', meaning: '`postgres://…`: use PostgreSQL instead of the embedded database; server processes are then stateless and can run side by side' },
  { name: 'MASTER_KEY', default: 'generated into `DATA_DIR/master.key` outside production', meaning: '32 random bytes, base64url; encrypts private keys and client secrets at rest. Every process sharing a database needs the same one' },
  { name: 'SEED_DEMO', default: '`true` in development', meaning: 'seed the two demo client apps and the demo user' },
  { name: 'LOG_LEVEL', default: '`info` (`silent` under `NODE_ENV=test`)', meaning: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`' },
  { name: 'SMTP_URL', default: 'unset', meaning: '`smtp://user:pass@host:587` or `smtps://…`: send mail over SMTP. Unset (development only), mail stays in the dev outbox; production requires it' },
  { name: 'MAIL_FROM', default: '`Payments Network Sign-In <no-reply@localhost>`', meaning: 'the From address of every email' },
  { name: 'GTM_ID', default: 'unset', meaning: 'Google Tag Manager container id (`GTM-…`) answered by `/api/gaid`; unset keeps tracking off' },
  { name: 'MFA_REQUIRED', default: '`true`', meaning: 'every user must have a second factor: one without sets one up at the next sign-in; `false` lets users without one in on their password' },
  { name: 'SMS_PROVIDER_URL', default: 'unset', meaning: 'an HTTP SMS provider (`https://` in production); unset, texts land in the dev outbox' },
  { name: 'SMS_PROVIDER_TOKEN', default: 'unset', meaning: "the SMS provider's bearer token; required with `SMS_PROVIDER_URL`" },
  { name: 'SMS_SENDER', default: '`PaymentsSSO`', meaning: 'the sender name or number the SMS provider shows' },
  { name: 'FEATURE_FLAGS_FILE', default: '`flags/feature-flags.json`', meaning: 'the feature flags the server enforces (and, in development, serves to the web app); a missing key takes its default. Re-read every 30 s (`LIMITS.FLAGS_REFRESH_INTERVAL`): an edit applies without a restart, a broken edit keeps the last good values' },
  { name: 'FLAG_SERVICE_TOKEN', default: '`sso-web`', meaning: "the authorization the development flag service (`/dev/flag-service`, not mounted in production) expects: the web app's flag client id" },
  { name: 'BOT_CHECK_SECRET', default: 'unset', meaning: 'the bot-check (Cloudflare Turnstile) secret: set, steps marked `botCheck` need a verified token (build the app with `VITE_BOT_CHECK`)' },
  { name: 'BOT_CHECK_VERIFY_URL', default: "Turnstile's siteverify", meaning: 'where bot-check tokens are verified (a local verifier in tests)' },
  { name: 'KEY_REFRESH_SECONDS', default: '`30` (`LIMITS.KEY_REFRESH_INTERVAL`)', meaning: 'how often each process re-reads the signing keys from the database, and how long a rotated key is published before it signs (1 to 3600)' },
  { name: 'VITE_SENTRY_DSN', default: 'unset', meaning: "read by the build (error reporting on) and by the server (its host allowed in the page's Content-Security-Policy)" },
  { name: 'TRUST_PROXY', default: 'off', meaning: "which proxies' `X-Forwarded-For` to believe, so per-IP limits count the real client: a hop count (`1` behind one load balancer) or comma-separated proxy addresses and CIDR ranges (`10.0.0.0/8,127.0.0.1`). `true` (any proxy) is refused" },
  { name: 'MIGRATE_ON_START', default: '`true`', meaning: 'apply pending migrations at start. `false` (run `npm run migrate` as its own deployment step): the server refuses to start while migrations are pending' },
  { name: 'METRICS_PORT', default: 'unset (no metrics)', meaning: 'serve Prometheus metrics at `/metrics` on this port, apart from the public one (`0`: any free port)' },
  { name: 'HELP_URL', default: 'unset (the built-in help page)', meaning: "the operator's user guide behind \"Can't Log In or Register?\": an absolute `https://` address (`http://` allowed outside production); `/auth/help` redirects to it. Unset, `/auth/help` is the built-in help page (lost phone, locked account, no code arriving, changed email), worded in the message catalogues" },
  { name: 'METRICS_HOST', default: '`127.0.0.1`', meaning: 'the interface the metrics port listens on' },
];
