import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Argon2Gate } from '../auth/argon2-gate.ts';
import type { Database } from '../db/database.ts';

/** How a sign-in (the password step) ended. */
export type SignInResult = 'success' | 'invalid_credentials' | 'throttled' | 'overloaded';
/** One-time code purposes, as the metrics label them. */
export type CodeLabel = 'password_reset' | 'mfa_email' | 'mfa_sms' | 'mfa_sms_setup' | 'email_change' | 'registration';
export type CodeOutcome = 'redeemed' | 'invalid' | 'too_many_attempts';

/** How many messages wait to be sent; the outbox sets it when it exists (until then the backlog reads 0). */
export type BacklogSource = () => number | Promise<number>;

/** The server's Prometheus metrics: one registry per server, so tests building several servers never share counts. */
export interface Metrics {
  readonly registry: Registry;
  signIn(result: SignInResult): void;
  codeSent(purpose: CodeLabel): void;
  codeVerified(purpose: CodeLabel, outcome: CodeOutcome): void;
  /** An account (or a second factor) started making its owner wait after too many failures. */
  lockout(kind: 'password' | 'totp'): void;
  observeRequest(labels: { method: string; route: string; status: number }, seconds: number): void;
  setOutboxBacklogSource(source: BacklogSource): void;
  /** The Prometheus text exposition. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

export function createMetrics(deps: { argon2: Argon2Gate; db: Pick<Database, 'poolStats'> }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'sso_process_' });
  const signIns = new Counter({ name: 'sso_sign_ins_total', help: 'Password sign-in attempts by result', labelNames: ['result'], registers: [registry] });
  const codesSent = new Counter({ name: 'sso_codes_sent_total', help: 'One-time codes issued, by purpose', labelNames: ['purpose'], registers: [registry] });
  const codesVerified = new Counter({ name: 'sso_codes_verified_total', help: 'One-time code submissions, by purpose and outcome', labelNames: ['purpose', 'outcome'], registers: [registry] });
  const lockouts = new Counter({ name: 'sso_lockouts_total', help: 'Accounts or second factors that began to make their owner wait', labelNames: ['kind'], registers: [registry] });
  const latency = new Histogram({
    name: 'sso_http_request_duration_seconds',
    help: 'Request latency by route template, method and status',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  new Gauge({
    name: 'sso_argon2_queue_depth',
    help: 'Password hashes waiting for an argon2 slot',
    registers: [registry],
    collect() {
      this.set(deps.argon2.waiting());
    },
  });
  new Gauge({
    name: 'sso_argon2_running',
    help: 'Password hashes running now',
    registers: [registry],
    collect() {
      this.set(deps.argon2.running());
    },
  });
  // Read before the backlog gauge, whose collection runs a query: the pool is shown as the scrape found it.
  new Gauge({
    name: 'sso_db_pool_connections',
    help: 'Database connections of this process, by state (the embedded database has one)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const stats = deps.db.poolStats();
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });

  let backlog: BacklogSource = () => 0;
  new Gauge({
    name: 'sso_outbox_backlog',
    help: 'Mail and text messages waiting to be sent',
    registers: [registry],
    async collect() {
      this.set(await backlog());
    },
  });
  return {
    registry,
    signIn: (result) => signIns.inc({ result }),
    codeSent: (purpose) => codesSent.inc({ purpose }),
    codeVerified: (purpose, outcome) => codesVerified.inc({ purpose, outcome }),
    lockout: (kind) => lockouts.inc({ kind }),
    observeRequest: ({ method, route, status }, seconds) => latency.observe({ method, route, status_code: String(status) }, seconds),
    setOutboxBacklogSource(source) {
      backlog = source;
    },
    async scrape() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
