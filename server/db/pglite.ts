import fs from 'node:fs';
import { PGlite, parse, protocol, type Results } from '@electric-sql/pglite';
import { projectClusterCache, type ClusterCache } from './cluster-cache.ts';
import { rethrowQueryError, runAfterCommit, type Database, type Queryable, type SqlValue, type Transaction } from './database.ts';

/** A statement prepared on the embedded database: its name, and its parameters' types as the database described them. */
interface PreparedStatement {
  name: string;
  parameterTypes: number[];
}

/**
 * How many statements run between two re-plannings of every prepared statement. PostgreSQL re-plans a statement when
 * its tables' statistics change, but the embedded database never analyzes: a plan chosen while a table was small
 * would otherwise be kept however much the table grows. Re-planned plans see the tables' current sizes.
 */
export const STATEMENTS_BETWEEN_REPLANS = 10_000;

/** Runs one statement as a named prepared statement; `inTransaction` when the caller holds a transaction open. */
type RunPrepared = <Row>(sql: string, params: readonly SqlValue[], inTransaction: boolean) => Promise<Results<Row>>;

/**
 * PGlite's own `query` parses and plans every statement afresh and makes five calls into the database for it
 * (parse, describe, bind, describe, execute). Here each statement is prepared once (parse and describe) and then run
 * with one call (bind, describe, execute, sync), its plan reused as PostgreSQL does for a named statement. Values
 * are serialized and rows parsed with PGlite's own type handlers, as its `query` does.
 */
function preparedStatements(pg: PGlite): RunPrepared {
  // SQL is never built from data (parameters only), so this holds one entry per statement the code can send.
  const statements = new Map<string, PreparedStatement>();
  // Every attempt takes a fresh name, so one that failed half-way can never collide with the next.
  let attempts = 0;

  async function prepare(sql: string): Promise<PreparedStatement> {
    attempts += 1;
    const name = `s${attempts}`;
    const message = Buffer.concat([protocol.serialize.parse({ name, text: sql }), protocol.serialize.describe({ type: 'S', name }), protocol.serialize.sync()]);
    const { messages } = await pg.execProtocol(message, { syncToFs: false });
    const description = messages.find((candidate) => candidate.name === 'parameterDescription') as { dataTypeIDs?: number[] } | undefined;
    const statement = { name, parameterTypes: description?.dataTypeIDs ?? [] };
    statements.set(sql, statement);
    return statement;
  }

  async function run<Row>(sql: string, params: readonly SqlValue[], syncToFs: boolean): Promise<Results<Row>> {
    const statement = statements.get(sql) ?? (await prepare(sql));
    const values = params.map((value, index) => {
      if (value === null || value === undefined) return null;
      const serialize = pg.serializers[statement.parameterTypes[index] ?? 0];
      return serialize ? (serialize(value) as string) : String(value);
    });
    const message = Buffer.concat([
      protocol.serialize.bind({ statement: statement.name, values }),
      protocol.serialize.describe({ type: 'P' }),
      protocol.serialize.execute({}),
      protocol.serialize.sync(),
    ]);
    const { messages } = await pg.execProtocol(message, { syncToFs });
    const [result] = parse.parseResults(messages, pg.parsers) as Results<Row>[];
    if (!result) throw new Error('the embedded database returned no result');
    return result;
  }

  let runsSinceReplan = 0;

  /** Drops every prepared statement's plan (not the statement) now and then; between statements, outside transactions. */
  async function replanNowAndThen(): Promise<void> {
    runsSinceReplan += 1;
    if (runsSinceReplan < STATEMENTS_BETWEEN_REPLANS) return;
    runsSinceReplan = 0;
    await pg.execProtocol(protocol.serialize.query('discard plans'), { syncToFs: false });
  }

  return (sql, params, inTransaction) => {
    if (pg.closed) return Promise.reject(new Error('PGlite is closed'));
    // The statement runs alone: no other statement, and (outside the caller's own transaction) no transaction, in
    // between, the two locks PGlite's own `query` takes (execProtocol takes neither).
    if (inTransaction) return pg.runExclusive(() => run(sql, params, false));
    return pg._runExclusiveTransaction(() =>
      pg.runExclusive(async () => {
        await replanNowAndThen();
        return run(sql, params, true);
      }),
    );
  };
}

function queryable(target: Pick<PGlite, 'exec'>, runPrepared: RunPrepared, inTransaction: boolean, deferred: (() => Promise<void>)[] = []): Transaction {
  return {
    afterCommit(task) {
      deferred.push(task);
    },
    async exec(sql: string) {
      await target.exec(sql);
    },
    async query<Row extends object>(sql: string, params: readonly SqlValue[] = []) {
      const result = await runPrepared<Row>(sql, params, inTransaction).catch(rethrowQueryError);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
  };
}

/**
 * PGlite on `dataDir` (in memory when undefined). A new cluster starts from `template` when given; a new one on disk
 * otherwise starts as a copy of the cluster `clusters` keeps, or, when that cannot be had or fails to open, from initdb.
 */
async function createCluster(dataDir: string | undefined, template: Blob | undefined, clusters: ClusterCache): Promise<PGlite> {
  if (dataDir === undefined) return PGlite.create(undefined, template ? { loadDataDir: template } : {});
  const location = `file://${dataDir}`;
  if (template) return PGlite.create(location, { loadDataDir: template });
  // Only a directory with nothing in it is new: one that holds anything is opened as it is, and never cleared here.
  if (fs.readdirSync(dataDir).length > 0 || !(await clusters.copyInto(dataDir))) return PGlite.create(location);
  try {
    return await PGlite.create(location);
  } catch {
    clusters.discard(dataDir);
    return PGlite.create(location);
  }
}

/**
 * Opens the embedded database in `dataDir` (in memory when undefined). One process at a time. `template`, a dump of
 * another embedded database (PGlite's dumpDataDir), is where a new one starts instead of an empty cluster; without
 * one, a new database on disk starts as a copy of the freshly initialised cluster `clusters` keeps (cluster-cache.ts).
 */
export async function openPglite(dataDir: string | undefined, template?: Blob, clusters: ClusterCache = projectClusterCache): Promise<Database> {
  if (dataDir !== undefined) fs.mkdirSync(dataDir, { recursive: true });
  const pg = await createCluster(dataDir, template, clusters);
  const runPrepared = preparedStatements(pg);
  const base = queryable(pg, runPrepared, false);
  return {
    kind: 'pglite',
    query: base.query,
    async transaction(work) {
      const deferred: (() => Promise<void>)[] = [];
      const result = await pg.transaction((tx) => work(queryable(tx, runPrepared, true, deferred)));
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
