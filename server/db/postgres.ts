import crypto from 'node:crypto';
import pg from 'pg';
import { LIMITS } from '../limits.ts';
import { rethrowQueryError, runAfterCommit, type ChangeFeed, type Database, type Queryable, type SqlValue } from './database.ts';

/** Pool size per server process; several stateless processes share one PostgreSQL. */
const POOL_SIZE = 10;

function quoteIdentifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`invalid schema name "${name}"`);
  return `"${name}"`;
}

/** Opens a pool on PostgreSQL; with `schema`, every connection works inside it (created if missing). */
export async function openPostgres(url: string, schema?: string): Promise<Database> {
  const connection = { connectionString: url, connectionTimeoutMillis: LIMITS.DATABASE_CONNECT_TIMEOUT_MS };
  if (schema === undefined) return openPostgresPool(new pg.Pool({ ...connection, max: POOL_SIZE }), connection);
  const quoted = quoteIdentifier(schema);
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  try {
    await setup.query(`create schema if not exists ${quoted}`);
  } finally {
    await setup.end();
  }
  const inSchema = { ...connection, options: `-c search_path=${quoted}` };
  return openPostgresPool(new pg.Pool({ ...inSchema, max: POOL_SIZE }), inSchema);
}

/**
 * Statement names already worked out. SQL is never built from data (parameters only), so this holds one entry per
 * statement the code can send, as each connection's prepared statements do.
 */
const statementNames = new Map<string, string>();

/** A statement's name for the server's prepared-statement cache: the same text always gets the same name. */
function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (name === undefined) {
    name = `s${crypto.createHash('sha1').update(sql).digest('base64url')}`;
    statementNames.set(sql, name);
  }
  return name;
}

/**
 * LISTENs on `channel` on a connection of its own (a pooled one would be handed to other work), reconnecting after
 * LIMITS.DATABASE_LISTEN_RETRY_MS whenever it is lost.
 */
async function listenOn(connection: pg.ClientConfig, channel: string, onNotify: (payload: string) => void): Promise<ChangeFeed> {
  let live = false;
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const next = new pg.Client(connection);
    const lost = () => {
      if (client !== next) return;
      live = false;
      client = undefined;
      next.end().catch(() => undefined);
      if (!closed) retry = setTimeout(() => void connect().catch(() => undefined), LIMITS.DATABASE_LISTEN_RETRY_MS);
    };
    next.on('error', lost);
    next.on('end', lost);
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload ?? '*');
    });
    client = next;
    try {
      await next.connect();
      await next.query(`listen ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      lost();
      throw error;
    }
    if (closed) return;
    live = true;
    // Whatever changed while nobody listened went unheard.
    onNotify('*');
  };
  // A database out of reach at start is tried again like a lost connection; meanwhile the caches stay off.
  await connect().catch(() => undefined);
  return {
    get live() {
      return live;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      live = false;
      const last = client;
      client = undefined;
      await last?.end();
    },
  };
}

function openPostgresPool(pool: pg.Pool, connection: pg.ClientConfig): Database {
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use, and ping() reports health.
  });
  const run = (client: pg.Pool | pg.PoolClient): Queryable['query'] =>
    async <Row extends object>(sql: string, params: readonly SqlValue[] = []) => {
      // A statement with parameters is prepared once per connection and reused (the server skips parsing and planning).
      const query = params.length === 0 ? { text: sql } : { name: statementName(sql), text: sql, values: [...params] as unknown[] };
      const result = await client.query(query).catch(rethrowQueryError);
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
    listen: (channel, onNotify) => listenOn(connection, channel, onNotify),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}
