import crypto from 'node:crypto';
import { LIMITS } from '../limits.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import { isTransaction, type Database, type Queryable } from '../db/database.ts';
import type { MailMessage, Mailer } from '../mail/mailer.ts';
import type { SmsMessage, SmsSender } from '../sms/sms-sender.ts';

type Channel = 'mail' | 'sms';
type Payload = { channel: 'mail'; message: MailMessage } | { channel: 'sms'; message: SmsMessage };

interface ClaimedRow {
  id: string;
  channel: Channel;
  payload_sealed: string;
  attempts: number;
}

/** Where the worker reports a failed send (never with the message's text). */
export interface OutboxLog {
  warn(details: object, text: string): void;
}

/** A message whose first try failed (with that failure's message): it waits for the worker's retries unless its sender withdraws it. */
export class UnsentMessage extends Error {
  /** Gives the message up (its sender told the user it did not go), so no retry sends it later. */
  readonly withdraw: () => Promise<void>;

  constructor(withdraw: () => Promise<void>, cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.withdraw = withdraw;
  }
}

/**
 * The durable outbox. `mailer` and `sms` are what the rest of the server sends through: each message is written to
 * the `outbox` table (in the caller's transaction when one is passed), then tried at once; what fails, or what a
 * process dying before the send left behind, is sent by the worker of any process, with back-off.
 */
export interface Outbox {
  mailer: Mailer;
  sms: SmsSender;
  /** Starts the worker's polling (every LIMITS.OUTBOX_POLL_INTERVAL_MS, or `pollIntervalMs`). */
  start(): void;
  /** Claims and sends what is due now; returns how many were sent. */
  runOnce(): Promise<number>;
  /** Messages not yet sent and not given up: the backlog, for a metric. */
  backlog(): Promise<number>;
  /** Stops polling; with `flushMs`, first keeps sending what is due for at most that long (graceful shutdown). */
  stop(options?: { flushMs?: number }): Promise<void>;
}

/** What the outbox needs: the database, the box that seals messages at rest, and the real transports. */
export interface OutboxDeps {
  db: Database;
  box: SecretBox;
  transports: { mailer: Mailer; sms: SmsSender };
  log: OutboxLog;
  pollIntervalMs?: number;
}

const sealContext = (id: string) => `outbox:${id}`;

/** The wait before try number `attempts + 1`, in seconds: doubling from the base, capped. */
export function retryDelay(attempts: number): number {
  return Math.min(LIMITS.OUTBOX_RETRY_MAX, LIMITS.OUTBOX_RETRY_BASE * 2 ** Math.max(0, attempts - 1));
}

/** Writes one message to the outbox through `via` (a transaction, so it commits or rolls back with its cause). */
async function enqueue(via: Queryable, box: SecretBox, payload: Payload): Promise<string> {
  const id = crypto.randomUUID();
  await via.query('insert into outbox (id, channel, payload_sealed) values ($1, $2, $3)', [id, payload.channel, box.seal(JSON.stringify(payload.message), sealContext(id))]);
  return id;
}

export function createOutbox(deps: OutboxDeps): Outbox {
  const { db, box, transports, log } = deps;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;

  async function deliver(row: ClaimedRow): Promise<boolean> {
    try {
      const message: unknown = JSON.parse(box.open(row.payload_sealed, sealContext(row.id)));
      if (row.channel === 'sms') await transports.sms.send(message as SmsMessage);
      else await transports.mailer.send(message as MailMessage);
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 200);
      const giveUp = row.attempts >= LIMITS.OUTBOX_MAX_ATTEMPTS;
      await db.query(
        `update outbox set lease_until = null, last_error = $2, next_attempt_at = now() + $3::double precision * interval '1 second',
           failed_at = case when $4 then now() end, expires_at = case when $4 then now() + $5::double precision * interval '1 second' end
         where id = $1`,
        [row.id, reason, retryDelay(row.attempts), giveUp, LIMITS.OUTBOX_KEEP_SENT],
      );
      log.warn({ err: { message: reason }, outboxId: row.id, channel: row.channel, attempts: row.attempts, givenUp: giveUp }, 'sending from the outbox failed');
      throw error;
    }
    await db.query(
      `update outbox set sent_at = now(), lease_until = null, last_error = null, expires_at = now() + $2::double precision * interval '1 second' where id = $1`,
      [row.id, LIMITS.OUTBOX_KEEP_SENT],
    );
    return true;
  }

  // One statement claims a batch: rows locked by another process's claim are skipped, not waited for, and the
  // lease keeps them from every other process until it runs out.
  async function claimDue(): Promise<ClaimedRow[]> {
    const result = await db.query<ClaimedRow>(
      `update outbox set lease_until = now() + $1::double precision * interval '1 second', attempts = attempts + 1
       where id in (
         select id from outbox
         where sent_at is null and failed_at is null and next_attempt_at <= now() and (lease_until is null or lease_until <= now())
         order by next_attempt_at limit $2 for update skip locked)
       returning id, channel, payload_sealed, attempts`,
      [LIMITS.OUTBOX_LEASE, LIMITS.OUTBOX_BATCH],
    );
    return result.rows;
  }

  async function claimOne(id: string): Promise<ClaimedRow | undefined> {
    const result = await db.query<ClaimedRow>(
      `update outbox set lease_until = now() + $2::double precision * interval '1 second', attempts = attempts + 1
       where id = $1 and sent_at is null and failed_at is null and (lease_until is null or lease_until <= now())
       returning id, channel, payload_sealed, attempts`,
      [id, LIMITS.OUTBOX_LEASE],
    );
    return result.rows[0];
  }

  async function drainDue(): Promise<number> {
    let sent = 0;
    for (let batch = await claimDue(); batch.length > 0 && !stopped; batch = await claimDue()) {
      const results = await Promise.allSettled(batch.map(deliver));
      sent += results.filter((result) => result.status === 'fulfilled').length;
    }
    return sent;
  }

  function runOnce(): Promise<number> {
    running ??= drainDue().finally(() => {
      running = undefined;
    });
    return running;
  }

  function poll(): void {
    runOnce().catch((error: unknown) => log.warn({ err: { message: error instanceof Error ? error.message : String(error) } }, 'the outbox worker could not reach the database'));
  }

  async function withdraw(id: string): Promise<void> {
    await db.query(
      `update outbox set failed_at = now(), lease_until = null, last_error = 'withdrawn by its sender', expires_at = now() + $2::double precision * interval '1 second'
       where id = $1 and sent_at is null`,
      [id, LIMITS.OUTBOX_KEEP_SENT],
    );
  }

  /**
   * Enqueues, then tries the send at once: inside a caller's transaction, once it commits (so a rolled-back cause
   * sends nothing); a failed try leaves the message to the worker's retries and is reported to the caller.
   */
  async function send(payload: Payload, via: Queryable | undefined): Promise<void> {
    const id = await enqueue(via ?? db, box, payload);
    const tryNow = async () => {
      const row = await claimOne(id);
      if (row) await deliver(row).catch((error: unknown) => Promise.reject(new UnsentMessage(() => withdraw(id), error)));
    };
    if (via !== undefined && isTransaction(via)) via.afterCommit(tryNow);
    else await tryNow();
  }

  return {
    mailer: { send: (message, via) => send({ channel: 'mail', message }, via) },
    sms: { send: (message, via) => send({ channel: 'sms', message }, via) },
    start() {
      stopped = false;
      timer ??= setInterval(poll, deps.pollIntervalMs ?? LIMITS.OUTBOX_POLL_INTERVAL_MS);
      timer.unref();
    },
    runOnce,
    async backlog() {
      const result = await db.query<{ count: string | number }>('select count(*) as count from outbox where sent_at is null and failed_at is null');
      return Number(result.rows[0]?.count ?? 0);
    },
    async stop(options = {}) {
      clearInterval(timer);
      timer = undefined;
      const deadline = Date.now() + (options.flushMs ?? 0);
      await running?.catch(() => undefined);
      while (Date.now() < deadline && (await runOnce().catch(() => 0)) > 0);
      stopped = true;
      await running?.catch(() => undefined);
    },
  };
}
