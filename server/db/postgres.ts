import pg from 'pg';
import { LIMITS } from '../config.ts';
import { rethrowQueryError, runAfterCommit, type Database, type Queryable, type SqlValue } from './database.ts';

/** Pool size per server process; several stateless processes share one PostgreSQL. */
const POOL_SIZE = 10;

function quoteIdentifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`invalid schema name "${name}"`);
  return `"${name}"`;
}

/** Opens a pool on PostgreSQL; with `schema`, every connection works inside it (created if missing). */
export async function openPostgres(url: string, schema?: string): Promise<Database> {
  if (schema === undefined) return openPostgresPool(new pg.Pool({ connectionString: url, max: POOL_SIZE, connectionTimeoutMillis: LIMITS.DATABASE_CONNECT_TIMEOUT_MS }));
  const quoted = quoteIdentifier(schema);
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  try {
    await setup.query(`create schema if not exists ${quoted}`);
  } finally {
    await setup.end();
  }
  return openPostgresPool(new pg.Pool({ connectionString: url, max: POOL_SIZE, connectionTimeoutMillis: LIMITS.DATABASE_CONNECT_TIMEOUT_MS, options: `-c search_path=${quoted}` }));
}

function openPostgresPool(pool: pg.Pool): Database {
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use, and ping() reports health.
  });
  const run = (client: pg.Pool | pg.PoolClient): Queryable['query'] =>
    async <Row extends object>(sql: string, params: readonly SqlValue[] = []) => {
      const result = await client.query(sql, [...params] as unknown[]).catch(rethrowQueryError);
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
    };
  return {
    kind: 'postgres',
    query: run(pool),
    async transaction(work) {
      const client = await pool.connect();
      // A connection lost between the statements of a checked-out client is reported as an 'error' event, which
      // would crash the process unheard; the next statement fails anyway, and the broken client is not reused.
      let broken = false;
      const onError = () => {
        broken = true;
      };
      client.on('error', onError);
      const deferred: (() => Promise<void>)[] = [];
      let result;
      try {
        await client.query('begin');
        result = await work({
          query: run(client),
          exec: async (sql) => {
            await client.query(sql);
          },
          afterCommit: (task) => deferred.push(task),
        });
        await client.query('commit');
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.off('error', onError);
        client.release(broken);
      }
      await runAfterCommit(deferred);
      return result;
    },
    exec: async (sql) => {
      await pool.query(sql);
    },
    ping: async () => {
      try {
        await pool.query('select 1');
        return true;
      } catch {
        return false;
      }
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}
