/** A value that can be bound to a `$n` placeholder. */
export type SqlValue = string | number | boolean | null | Date | Uint8Array | readonly string[] | Record<string, unknown>;

/** What every query can do: parameterised SQL only, never string-built. */
export interface Queryable {
  query<Row extends object>(sql: string, params?: readonly SqlValue[]): Promise<{ rows: Row[]; rowCount: number }>;
}

/** A unit of work inside one transaction. */
export interface Transaction extends Queryable {
  /** Runs a script of several statements; no parameters. */
  exec(sql: string): Promise<void>;
  /**
   * Runs `task` once the transaction has committed (never if it rolls back), before `transaction()` resolves; a
   * task's failure rejects `transaction()` although the work is committed. The outbox sends this way.
   */
  afterCommit(task: () => Promise<void>): void;
}

/** True when `target` is a transaction in progress, which can defer work until it commits. */
export function isTransaction(target: Queryable): target is Transaction {
  return typeof (target as Partial<Transaction>).afterCommit === 'function';
}

/** Runs the tasks a committed transaction deferred, in order; every task runs, and the first failure is rethrown. */
export async function runAfterCommit(tasks: readonly (() => Promise<void>)[]): Promise<void> {
  let failure: { error: unknown } | undefined;
  for (const task of tasks) {
    try {
      await task();
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}

/** The store both backends (embedded PGlite and PostgreSQL) present to the rest of the server. */
export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `work` in one transaction; it is rolled back if `work` throws. */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /** Runs a script of several statements (migrations); no parameters. */
  exec(sql: string): Promise<void>;
  /** True when the database answers. */
  ping(): Promise<boolean>;
  /**
   * Hears `channel`'s notifications (PostgreSQL LISTEN/NOTIFY), including those sent by other processes. While the
   * feed is not live (PostgreSQL's listening connection was lost), notifications may go unheard, so a cache fed by
   * it must not serve; when it is live again, `onNotify` gets `'*'` (anything may have changed meanwhile).
   */
  listen(channel: string, onNotify: (payload: string) => void): Promise<ChangeFeed>;
  /** Connections this process holds: in all, idle, and requests waiting for one (the embedded database has one). */
  poolStats(): PoolStats;
  close(): Promise<void>;
}

/** A subscription to a notification channel. */
export interface ChangeFeed {
  /** True while every notification is being heard. */
  readonly live: boolean;
  close(): Promise<void>;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/**
 * SQLSTATEs for a value PostgreSQL's text and JSON types cannot hold: a NUL byte (22021), `\u0000` in JSON (22P05),
 * a lone surrogate in JSON (22P02). Such a value always comes from the request, so it is bad input, not a fault.
 */
const UNSTORABLE_VALUE_CODES = new Set(['22021', '22P05', '22P02']);

/** A parameter the database refused to store; the HTTP layer answers it with a 400. */
export class UnstorableValueError extends Error {
  override readonly name = 'UnstorableValueError';
}

/** Rethrows `error`, as an UnstorableValueError when the database refused a parameter's value. */
export function rethrowQueryError(error: unknown): never {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && UNSTORABLE_VALUE_CODES.has(code)) throw new UnstorableValueError((error as Error).message, { cause: error });
  throw error;
}

