import path from 'node:path';
import type { Config } from './config.ts';
import { lockDataDir } from './db/data-dir-lock.ts';
import { DatabaseUnavailableError } from './db/unavailable.ts';
import type { Database } from './db/database.ts';
import { openDatabase } from './db/open-database.ts';
import { MigrationsPendingError, migrate, pendingMigrations } from './db/migrate.ts';

/** The embedded database's folder inside DATA_DIR. */
export const pgliteDir = (config: Pick<Config, 'dataDir'>) => path.join(config.dataDir, 'pglite');

/** The database URL as it may be printed: the password replaced. */
function printableUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.href;
}

/**
 * Brings the schema up to date when `apply` (MIGRATE_ON_START, or `npm run migrate`); otherwise refuses a database
 * that lacks migrations, so a server never runs on a schema older than its code.
 */
async function prepareSchema(db: Database, apply: boolean): Promise<string[]> {
  if (apply) return migrate(db);
  const pending = await pendingMigrations(db);
  if (pending.length > 0) {
    throw new MigrationsPendingError(`the database lacks ${pending.length} migration(s) (${pending.join(', ')}): run \`npm run migrate\` first, or set MIGRATE_ON_START=true`);
  }
  return [];
}

/** Opens the configured database (locking the embedded one to this process) and migrates it when configured to. */
export async function openConfiguredDatabase(
  config: Config,
  options: { migrate?: boolean } = {},
): Promise<{ db: Database; applied: string[]; release: () => Promise<void> }> {
  const apply = options.migrate ?? config.migrateOnStart;
  if (config.databaseUrl !== undefined) {
    const db = await openDatabase({ kind: 'postgres', url: config.databaseUrl });
    let applied: string[];
    try {
      applied = await prepareSchema(db, apply);
    } catch (error) {
      await db.close().catch(() => undefined);
      if (error instanceof MigrationsPendingError) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new DatabaseUnavailableError(`DATABASE_URL ${printableUrl(config.databaseUrl)} cannot be used: ${reason || 'connection failed'}`);
    }
    return { db, applied, release: () => db.close() };
  }
  const unlock = lockDataDir(config.dataDir);
  try {
    const db = await openDatabase({ kind: 'pglite', dataDir: pgliteDir(config) });
    const applied = await prepareSchema(db, apply).catch(async (error: unknown) => {
      await db.close().catch(() => undefined);
      throw error;
    });
    return {
      db,
      applied,
      release: async () => {
        await db.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}
