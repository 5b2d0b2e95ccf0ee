import path from 'node:path';
import type { Config } from './config.ts';
import { lockDataDir } from './db/data-dir-lock.ts';
import { openDatabase, type Database } from './db/database.ts';
import { migrate } from './db/migrate.ts';

/** The embedded database's folder inside DATA_DIR. */
export const pgliteDir = (config: Pick<Config, 'dataDir'>) => path.join(config.dataDir, 'pglite');

/** Opens the configured database (locking the embedded one to this process) and applies migrations. */
export async function openConfiguredDatabase(config: Config): Promise<{ db: Database; release: () => Promise<void> }> {
  if (config.databaseUrl !== undefined) {
    const db = await openDatabase({ kind: 'postgres', url: config.databaseUrl });
    await migrate(db);
    return { db, release: () => db.close() };
  }
  const unlock = lockDataDir(config.dataDir);
  try {
    const db = await openDatabase({ kind: 'pglite', dataDir: pgliteDir(config) });
    await migrate(db);
    return {
      db,
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
