import { loadConfig } from '../config.ts';
import { ConfigError } from '../config-readers.ts';
import { DataDirLockedError } from '../db/data-dir-lock.ts';
import { openBrieflyWithoutOptimising } from '../db/wasm-tiering.ts';
import { DatabaseUnavailableError } from '../db/unavailable.ts';
import { openConfiguredDatabase } from '../runtime.ts';

/** `npm run migrate`: applies pending migrations to the configured database and lists them. */
async function main(): Promise<number> {
  try {
    const { applied, release } = await openConfiguredDatabase(loadConfig(), { migrate: true });
    await release();
    process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'the database is up to date\n');
    return 0;
  } catch (error) {
    const known = error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof DatabaseUnavailableError;
    process.stderr.write(`error: ${known ? error.message : `migration failed: ${(error as Error).message}`}\n`);
    return 1;
  }
}

openBrieflyWithoutOptimising();
process.exitCode = await main();
