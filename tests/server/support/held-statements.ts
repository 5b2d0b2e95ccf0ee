import type { Database } from '../../../server/db/database.ts';

/**
 * `db` with the statements starting with `prefix` held until released: a route that awaits one does not answer
 * until then, so a test can tell work done before an answer from work done after it, without timing anything.
 */
export function holdingStatements(db: Database, prefix: string): { db: Database; held: () => number; release: () => void } {
  let waiting: Array<() => void> = [];
  let held = 0;
  let released = false;
  const query: Database['query'] = async (sql, params) => {
    if (!released && sql.trimStart().startsWith(prefix)) {
      held += 1;
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    return db.query(sql, params);
  };
  const wrapped: Database = Object.assign(Object.create(db) as Database, { query, transaction: db.transaction.bind(db), exec: db.exec.bind(db), ping: db.ping.bind(db), listen: db.listen.bind(db), poolStats: db.poolStats.bind(db), close: db.close.bind(db), kind: db.kind });
  return {
    db: wrapped,
    held: () => held,
    release() {
      released = true;
      for (const resolve of waiting) resolve();
      waiting = [];
    },
  };
}
