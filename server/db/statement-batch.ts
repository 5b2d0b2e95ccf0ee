import { runAfterCommit, type Queryable, type SqlValue, type Transaction } from './database.ts';

/** One write held back until the batch is sent. */
interface HeldWrite {
  sql: string;
  params: readonly SqlValue[];
  settle: (error?: unknown) => void;
}

/**
 * Writes held back and sent together in one statement (`send`), each as a data-modifying CTE of it: a request's
 * independent writes (the provider's rows, the step-up, the outbox's message) cost one round trip and land all or
 * none. Every write sees the tables as they were before the statement, so none may depend on another's effect.
 *
 * Only writes whose answer nobody reads belong here: `query` answers no rows, once the batch is sent. Their SQL
 * must use `$n` only as placeholders (they are renumbered) and be one INSERT, UPDATE or DELETE, not a WITH (which
 * PostgreSQL allows only at the top): such a statement is sent on its own, after the batch.
 */
export interface StatementBatch extends Transaction {
  /** Sends the writes held back so far; resolves when all are written, rejects (and so do their queries) if any failed. */
  send(): Promise<void>;
}

const NOTHING = { rows: [], rowCount: 0 };

/**
 * A batch over `db`. A task handed to `afterCommit` runs once the batch is written; one handed after that (the
 * outbox registers its first try once its row is written) runs on the next turn of the event loop, after the answer
 * that waited on the batch is on its way, and its failure goes to `onLateFailure`.
 */
export function statementBatch(db: Queryable, onLateFailure: (error: unknown) => void): StatementBatch {
  const held: HeldWrite[] = [];
  const tasks: (() => Promise<void>)[] = [];
  let sent = false;

  async function write(writes: readonly HeldWrite[]): Promise<void> {
    if (writes.length === 1) {
      await db.query(writes[0]!.sql, writes[0]!.params);
      return;
    }
    const params: SqlValue[] = [];
    const parts = writes.map((entry, index) => {
      const offset = params.length;
      params.push(...entry.params);
      return `w${index} as (${entry.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`)})`;
    });
    await db.query(`with ${parts.join(', ')} select 1`, params);
  }

  return {
    query<Row extends object>(sql: string, params: readonly SqlValue[] = []) {
      if (sent) throw new Error('this batch was sent already');
      return new Promise<{ rows: Row[]; rowCount: number }>((resolve, reject) => {
        held.push({ sql, params, settle: (error) => (error === undefined ? resolve(NOTHING) : reject(error)) });
      });
    },
    async exec() {
      throw new Error('a statement batch holds parameterised writes only');
    },
    afterCommit(task) {
      if (!sent) {
        tasks.push(task);
        return;
      }
      setImmediate(() => void task().catch(onLateFailure));
    },
    async send() {
      if (sent) throw new Error('this batch was sent already');
      sent = true;
      const alone = held.filter((entry) => /^\s*with\b/i.test(entry.sql));
      const together = held.filter((entry) => !alone.includes(entry));
      try {
        if (together.length > 0) await write(together);
        for (const entry of alone) await write([entry]);
      } catch (error) {
        for (const entry of held) entry.settle(error);
        throw error;
      }
      for (const entry of held) entry.settle();
      await runAfterCommit(tasks);
    },
  };
}
