import type Provider from 'oidc-provider';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { KeyStore } from './crypto/key-store.ts';
import type { SecretBox } from './crypto/secret-box.ts';
import type { Database } from './db/database.ts';
import type { FlowRegistry } from './flows/flow-registry.ts';
import type { LoginThrottle } from './auth/lockout.ts';
import type { OneTimeCodes } from './auth/one-time-codes.ts';
import type { PasswordPolicy } from './auth/password-policy.ts';
import type { BotCheckVerifier } from './auth/bot-check.ts';
import type { FeatureFlags } from './flags/feature-flags.ts';
import type { Mailer } from './mail/mailer.ts';
import type { SmsSender } from './sms/sms-sender.ts';
import type { ShutdownHooks } from './lifecycle/shutdown-hooks.ts';
import type { Metrics } from './observability/metrics.ts';
import type { Outbox } from './outbox/outbox.ts';

/** The services the server is built from; each function takes the few it uses, passed in, never reached for globally. */
export interface Services {
  config: Config;
  db: Database;
  keys: KeyStore;
  box: SecretBox;
  clock: Clock;
  flows: FlowRegistry;
  provider: Provider;
  /** Mail and texts, written to the durable outbox (in the caller's transaction when one is passed) and sent from it. */
  mailer: Mailer;
  sms: SmsSender;
  /** The outbox behind them: its backlog (a metric) and its worker's stop for a graceful shutdown. */
  outbox: Outbox;
  codes: OneTimeCodes;
  throttle: LoginThrottle;
  passwordPolicy: PasswordPolicy;
  flags: FeatureFlags;
  /** Verifies bot-check tokens; absent while the bot check is off (no BOT_CHECK_SECRET). */
  botCheck?: BotCheckVerifier;
  /** The Prometheus metrics; a worker that owns a figure (the outbox's backlog) sets it here. */
  metrics: Metrics;
  /** Where background workers register how they stop or flush on SIGTERM (after requests drained, before the DB closes). */
  shutdown: ShutdownHooks;
}
