import type { Database } from '../../../server/db/database.ts';

/**
 * `db` with the statements starting with `prefix` held until released: a route that awaits one does not answer
 * until then, so a test can tell work done before an answer from work done after it, without timing anything.
 */
export function holdingStatements(db: Database, prefix: string): { db: Database; held: () => number; release: () => Promise<void> } {
  let waiting: Array<() => void> = [];
  let held = 0;
  let released = false;
  /** The held statements, from when they were let go until they have run. */
  const running: Array<Promise<unknown>> = [];
  const query: Database['query'] = async <Row extends object>(sql: string, params?: Parameters<Database['query']>[1]) => {
    if (!released && sql.trimStart().startsWith(prefix)) {
      held += 1;
      await new Promise<void>((resolve) => waiting.push(resolve));
      const run = db.query<Row>(sql, params);
      running.push(run.catch(() => undefined));
      return run;
    }
    return db.query<Row>(sql, params);
  };
  const wrapped: Database = Object.assign(Object.create(db) as Database, { query, transaction: db.transaction.bind(db), exec: db.exec.bind(db), ping: db.ping.bind(db), listen: db.listen.bind(db), poolStats: db.poolStats.bind(db), close: db.close.bind(db), kind: db.kind });
  return {
    db: wrapped,
    held: () => held,
    /**
     * Lets every held statement go, and answers when they have run: a test that then closes the database (dropping
     * its schema) must not race the statements it has just let go (PostgreSQL found a deadlock between the two).
     */
    async release() {
      released = true;
      for (const resolve of waiting) resolve();
      waiting = [];
      // Each let-go statement is sent once its awaiting caller runs again, a turn later.
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.all(running);
    },
  };
}
