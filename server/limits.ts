/**
 * Every limit the server enforces, in one place. Times are in seconds unless the name says otherwise.
 * Changing a value here changes it everywhere; nothing else hard-codes these numbers.
 */
export const LIMITS = {
  /** Lifetime of an authorization code; RFC 6749 recommends at most 10 minutes, we keep it short. */
  AUTHORIZATION_CODE_TTL: 60,
  /** Lifetime of an authorization code of a `fapi2` client: FAPI 2.0 Security Profile §5.3.2.1 allows at most 60 s. */
  FAPI2_AUTHORIZATION_CODE_TTL: 60,
  /** How far a DPoP proof's `iat` may be from now without a server nonce (RFC 9449 §11.1; oidc-provider's window too). */
  DPOP_PROOF_WINDOW: 300,
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
  /** RSA modulus for the token-signing key (RS256, PS256): 2048, NIST's floor through 2030, as every RP library accepts. */
  SIGNING_RSA_KEY_BITS: 2048,
  ACCESS_TOKEN_TTL: 10 * 60,
  /** A service app's client_credentials access token: short-lived, as no person can end it by signing out. */
  SERVICE_TOKEN_TTL: 5 * 60,
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
  /** How long the admin CLI waits for a running server's admin API before concluding the server is gone. */
  ADMIN_API_TIMEOUT_MS: 5_000,
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
  /**
   * Changing how the account is reached or proven on the account page (factors, recovery codes, password, email,
   * other sessions) needs a second factor proven this recently (step-up); a sign-in that proved one counts.
   */
  ACCOUNT_STEP_UP_TTL: 5 * 60,
  /** Recovery codes made at once; each has RECOVERY_CODE_LENGTH characters of a 32-letter alphabet (5 bits each, 60 bits). */
  RECOVERY_CODE_COUNT: 10,
  RECOVERY_CODE_LENGTH: 12,
  /**
   * Recovery codes are stored with argon2id at a low cost (salted, slow): 60 random bits need no password-grade cost,
   * and a sign-in checks a code against each unused one of the set.
   */
  RECOVERY_CODE_ARGON2_MEMORY_KIB: 4096,
  RECOVERY_CODE_ARGON2_TIME_COST: 2,
  /** The account page warns when this many recovery codes or fewer are left. */
  RECOVERY_CODES_LOW: 2,
  /** How long a passkey's WebAuthn challenge may be answered (adding one, or signing in with one): 5 minutes, used once. */
  PASSKEY_CHALLENGE_TTL: 5 * 60,
  /** The smallest RSA modulus a passkey's RS256 key may have, in bits (NIST SP 800-131A: 2048). */
  PASSKEY_RSA_MIN_BITS: 2048,
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
  /**
   * How long the old address can undo an email change: the notice mailed there carries a link that puts the address
   * back, signs out everywhere and has the owner choose a new password with a code sent to it (Google's way).
   */
  EMAIL_CHANGE_REVERT_TTL: 14 * 24 * 3600,
  /** Mails the email-change form may send per account per hour (codes to a new address, or warnings to a taken one's owner). */
  EMAIL_CHANGE_MAILS_PER_HOUR: 5,
  /** How long a browser is remembered as one that signed in to an account (its cookie's lifetime). */
  KNOWN_BROWSER_TTL: 400 * 24 * 3600,
  /** How long "Don't ask for a code on this device" lasts (the trusted-browser cookie's lifetime): 30 days. */
  TRUSTED_DEVICE_TTL: 30 * 24 * 3600,
} as const;
