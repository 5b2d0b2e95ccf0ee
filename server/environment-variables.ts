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
  { name: 'PUBLIC_URL', default: '`http://localhost:$PORT`', meaning: 'the origin users and client apps see, without a path: the OIDC issuer and the base of every link. Never taken from request headers. Production refuses `http://`' },
  { name: 'DATA_DIR', default: '`./.data`', meaning: "the embedded database, the development master key and the CLI's admin file" },
  { name: 'DATABASE_URL', default: 'unset', meaning: '`postgres://…`: use PostgreSQL instead of the embedded database; server processes are then stateless and can run side by side' },
  { name: 'MASTER_KEY', default: 'generated into `DATA_DIR/master.key` outside production', meaning: '32 random bytes, base64url; encrypts private keys and client secrets at rest. Every process sharing a database needs the same one. Production refuses a made-up key of low entropy (all zeros, a repeated pattern)' },
  { name: 'SEED_DEMO', default: '`true` in development', meaning: 'seed the two demo client apps and the demo user. Production refuses it, and refuses to start on a database that holds the demo user or a client with a `/demo/` redirect' },
  { name: 'DEMO_PORT', default: '`$PORT + 1`', meaning: 'where the demo client app listens (seeded setups only), on `HOST`: an origin of its own, as a real client app has' },
  { name: 'DEMO_URL', default: "`http://127.0.0.1:$DEMO_PORT` (the other loopback name than `PUBLIC_URL`'s)", meaning: "the demo client app's origin, another one than `PUBLIC_URL`: its redirect, post-logout and back-channel logout addresses are registered there" },
  { name: 'LOG_LEVEL', default: '`info` (`silent` under `NODE_ENV=test`)', meaning: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`' },
  { name: 'SMTP_URL', default: 'unset', meaning: '`smtp://user:pass@host:587` or `smtps://…`: send mail over SMTP. Unset (development only), mail stays in the dev outbox; production requires it, and refuses credentials over plain `smtp://` unless `?requireTLS=true` requires STARTTLS' },
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
  { name: 'TRUST_PROXY', default: 'off', meaning: "which proxies' `X-Forwarded-For` to believe, so per-IP limits count the real client: a hop count (`1` behind one load balancer) or comma-separated proxy addresses and CIDR ranges (`10.0.0.0/8,127.0.0.1`). `true` (any proxy) is refused. A hop count trusts whatever stands that many hops in front, so it logs a warning at start: prefer the proxies' addresses" },
  { name: 'MIGRATE_ON_START', default: '`true`', meaning: 'apply pending migrations at start. `false` (run `npm run migrate` as its own deployment step): the server refuses to start while migrations are pending' },
  { name: 'METRICS_PORT', default: 'unset (no metrics)', meaning: 'serve Prometheus metrics at `/metrics` on this port, apart from the public one (`0`: any free port)' },
  { name: 'HELP_URL', default: 'unset (the built-in help page)', meaning: "the operator's user guide behind \"Can't Log In or Register?\": an absolute `https://` address (`http://` allowed outside production); `/auth/help` redirects to it. Unset, `/auth/help` is the built-in help page (lost phone, locked account, no code arriving, changed email), worded in the message catalogues" },
  { name: 'METRICS_HOST', default: '`127.0.0.1`', meaning: 'the interface the metrics port listens on' },
];
