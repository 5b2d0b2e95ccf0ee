import path from 'node:path';
import type { Config } from './config.ts';
import { lockDataDir } from './db/data-dir-lock.ts';
import type { Database } from './db/database.ts';
import { openDatabase } from './db/open-database.ts';
import { migrate } from './db/migrate.ts';

/** The embedded database's folder inside DATA_DIR. */
export const pgliteDir = (config: Pick<Config, 'dataDir'>) => path.join(config.dataDir, 'pglite');

/** Thrown when the configured PostgreSQL cannot be reached or used; its message is one line, without the password. */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
}

/** The database URL as it may be printed: the password replaced. */
function printableUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.href;
}

/** Opens the configured database (locking the embedded one to this process) and applies migrations. */
export async function openConfiguredDatabase(config: Config): Promise<{ db: Database; applied: string[]; release: () => Promise<void> }> {
  if (config.databaseUrl !== undefined) {
    const db = await openDatabase({ kind: 'postgres', url: config.databaseUrl });
    let applied: string[];
    try {
      applied = await migrate(db);
    } catch (error) {
      await db.close().catch(() => undefined);
      const reason = error instanceof Error ? error.message : String(error);
      throw new DatabaseUnavailableError(`DATABASE_URL ${printableUrl(config.databaseUrl)} cannot be used: ${reason || 'connection failed'}`);
    }
    return { db, applied, release: () => db.close() };
  }
  const unlock = lockDataDir(config.dataDir);
  try {
    const db = await openDatabase({ kind: 'pglite', dataDir: pgliteDir(config) });
    const applied = await migrate(db);
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
