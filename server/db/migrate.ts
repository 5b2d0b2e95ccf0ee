import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.ts';

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
/** Serialises migrations when several server processes start at once against one PostgreSQL. */
const MIGRATION_LOCK_ID = 72_050_001;
/** Migrations renumbered after releases had recorded them (the gap at 003 closed): old name → new name. */
const RENAMED_MIGRATIONS: Readonly<Record<string, string>> = {
  '004_registration.sql': '003_registration.sql',
  '005_invitations_companies.sql': '004_invitations_companies.sql',
  '006_mfa.sql': '005_mfa.sql',
};

/** Thrown at start when MIGRATE_ON_START is off and the database lacks migrations; its message says what to run. */
export class MigrationsPendingError extends Error {
  override readonly name = 'MigrationsPendingError';
}

/** The migrations not applied yet, in order (none when the database is up to date); changes nothing. */
export async function pendingMigrations(db: Database, directory: string = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await fs.readdir(directory)).filter((name) => /^\d{3}_[a-z0-9_]+\.sql$/.test(name)).sort();
  const recorded = await db.query<{ present: string | null }>("select to_regclass('schema_migrations')::text as present");
  if (!recorded.rows[0]?.present) return files;
  const done = new Set((await db.query<{ name: string }>('select name from schema_migrations')).rows.map((row) => RENAMED_MIGRATIONS[row.name] ?? row.name));
  return files.filter((file) => !done.has(file));
}

/** Applies, in file-name order, every migration not applied yet; returns the names it applied. */
export async function migrate(db: Database, directory: string = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await fs.readdir(directory)).filter((name) => /^\d{3}_[a-z0-9_]+\.sql$/.test(name)).sort();
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
    await tx.exec('create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())');
    // A database migrated before the renumbering knows its migrations by their old names; it keeps them, renamed.
    for (const [old, renamed] of Object.entries(RENAMED_MIGRATIONS)) await tx.query('update schema_migrations set name = $2 where name = $1', [old, renamed]);
    const done = new Set((await tx.query<{ name: string }>('select name from schema_migrations')).rows.map((row) => row.name));
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      await tx.exec(await fs.readFile(path.join(directory, file), 'utf8'));
      await tx.query('insert into schema_migrations (name) values ($1)', [file]);
      applied.push(file);
    }
    return applied;
  });
}
