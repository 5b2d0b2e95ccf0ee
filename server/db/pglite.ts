import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { rethrowQueryError, runAfterCommit, type Database, type Queryable, type SqlValue, type Transaction } from './database.ts';

type PgliteLike = Pick<PGlite, 'query' | 'exec'>;

function queryable(target: PgliteLike, deferred: (() => Promise<void>)[] = []): Transaction {
  return {
    afterCommit(task) {
      deferred.push(task);
    },
    async exec(sql: string) {
      await target.exec(sql);
    },
    async query<Row extends object>(sql: string, params: readonly SqlValue[] = []) {
      const result = await target.query<Row>(sql, [...params]).catch(rethrowQueryError);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
  };
}

/** Opens the embedded database in `dataDir` (in memory when undefined). One process at a time. */
export async function openPglite(dataDir: string | undefined): Promise<Database> {
  if (dataDir !== undefined) fs.mkdirSync(dataDir, { recursive: true });
  const pg = await PGlite.create(dataDir === undefined ? undefined : `file://${dataDir}`);
  const base = queryable(pg);
  return {
    kind: 'pglite',
    query: base.query,
    async transaction(work) {
      const deferred: (() => Promise<void>)[] = [];
      const result = await pg.transaction((tx) => work(queryable(tx, deferred)));
      await runAfterCommit(deferred);
      return result;
    },
    exec: base.exec,
    ping: async () => {
      try {
        await pg.query('select 1');
        return true;
      } catch {
        return false;
      }
    },
    // One process owns the embedded database, so every change is made here and heard at once.
    async listen(channel, onNotify) {
      const unlisten = await pg.listen(channel, onNotify);
      return {
        live: true,
        // Closing the database ends every subscription with it.
        close: async () => {
          if (!pg.closed) await unlisten();
        },
      };
    },
    poolStats: () => ({ total: 1, idle: 0, waiting: 0 }),
    close: () => pg.close(),
  };
}
