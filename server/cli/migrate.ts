import { ConfigError, loadConfig } from '../config.ts';
import { DataDirLockedError } from '../db/data-dir-lock.ts';
import { openDatabase } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { lockDataDir } from '../db/data-dir-lock.ts';
import { pgliteDir } from '../runtime.ts';

/** `npm run migrate`: applies pending migrations to the configured database and lists them. */
async function main(): Promise<number> {
  try {
    const config = loadConfig();
    const unlock = config.databaseUrl === undefined ? lockDataDir(config.dataDir) : () => undefined;
    const db = await openDatabase(config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: pgliteDir(config) });
    try {
      const applied = await migrate(db);
      process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'the database is up to date\n');
    } finally {
      await db.close();
      unlock();
    }
    return 0;
  } catch (error) {
    const known = error instanceof ConfigError || error instanceof DataDirLockedError;
    process.stderr.write(`error: ${known ? error.message : `migration failed: ${(error as Error).message}`}\n`);
    return 1;
  }
}

process.exitCode = await main();
