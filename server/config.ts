import path from 'node:path';
import { APP_NAME } from '../contract/product.ts';
import { parseTrustProxy, type TrustProxy } from './web/trust-proxy.ts';
import { ConfigError, createProblemCollector, readBoolean, readHost, readPort, readSeconds, readUrl, type Env } from './config-readers.ts';
import { LIMITS } from './limits.ts';
import { checkMasterKeyEntropy, checkNoDemoSeeding, checkPublicUrlIsHttps, checkSmtpTls } from './production-checks.ts';


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
  /** The demo client app (seeded setups only): its own origin, as a real client app has, and the port it listens on. */
  readonly demo: { readonly url: string; readonly port: number };
}

/** The product's name, the first half of an authenticator app entry's issuer. */
export const PRODUCT_NAME = 'Payments Network';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function readEnvironment(env: Env): Config['env'] {
  const value = env.NODE_ENV ?? 'development';
  if (value === 'development' || value === 'production' || value === 'test') return value;
  throw new ConfigError(`NODE_ENV must be development, production or test (got "${value}")`);
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

function readPublicUrl(env: Env, host: string, port: number): string {
  const fallbackHost = host === '127.0.0.1' || host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  const raw = env.PUBLIC_URL ?? `http://${fallbackHost}:${port}`;
  const url = readUrl('PUBLIC_URL', raw, ['http:', 'https:']);
  if (url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) {
    throw new ConfigError(`PUBLIC_URL must be an origin such as https://sso.example.com, without a path (got "${raw}")`);
  }
  return url.origin;
}

/**
 * Where the demo client app lives when DEMO_URL is unset: another origin than the provider's, as every real client
 * app is (the other loopback name, `localhost` and `127.0.0.1` being different sites, and port `demoPort`).
 */
export function defaultDemoUrl(publicUrl: string, demoPort: number): string {
  const url = new URL(publicUrl);
  const host = url.hostname === 'localhost' ? '127.0.0.1' : url.hostname === '127.0.0.1' ? 'localhost' : url.hostname;
  return `${url.protocol}//${host}:${demoPort}`;
}

/** DEMO_PORT (PORT + 1 unless set) and DEMO_URL (another origin than PUBLIC_URL's). */
function readDemo(env: Env, port: number, publicUrl: string): Config['demo'] {
  const demoPort = readPort(env, 'DEMO_PORT', String(port === 0 ? 0 : port + 1));
  if (demoPort !== 0 && demoPort === port) throw new ConfigError(`DEMO_PORT must differ from PORT: the demo client app has an origin of its own (got ${demoPort})`);
  const raw = env.DEMO_URL || defaultDemoUrl(publicUrl, demoPort);
  const url = readUrl('DEMO_URL', raw, ['http:', 'https:']);
  if (url.origin === publicUrl) throw new ConfigError(`DEMO_URL must be another origin than PUBLIC_URL, as a real client app's is (got "${raw}")`);
  return { url: url.origin, port: demoPort };
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
  const demo = read(() => readDemo(env, port, publicUrl), { url: 'http://127.0.0.1', port: 0 });
  if (mode === 'production') {
    if (masterKey !== undefined) check(() => checkMasterKeyEntropy(masterKey));
    check(() => checkPublicUrlIsHttps(publicUrl));
    if (smtpUrl !== undefined) check(() => checkSmtpTls(smtpUrl));
    check(() => checkNoDemoSeeding(seedDemo));
  }
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
    demo,
  };
}
