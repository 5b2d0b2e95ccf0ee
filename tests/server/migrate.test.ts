import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { migrate } from '../../server/db/migrate.ts';
import { openDatabase } from '../../server/db/open-database.ts';

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../server/db/migrations');

/** The names earlier releases gave the migrations, before the numbering closed its gap at 003. */
const RELEASED_NAMES: Record<string, string> = {
  '001_initial.sql': '001_initial.sql',
  '002_password_recovery.sql': '002_password_recovery.sql',
  '003_registration.sql': '004_registration.sql',
  '004_invitations_companies.sql': '005_invitations_companies.sql',
  '005_mfa.sql': '006_mfa.sql',
};

describe('migrations', () => {
  let db: Database;
  let releasedDir: string;
  beforeAll(async () => {
    releasedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sso-released-migrations-'));
    for (const [name, released] of Object.entries(RELEASED_NAMES)) fs.copyFileSync(path.join(MIGRATIONS_DIR, name), path.join(releasedDir, released));
    db = await openDatabase({ kind: 'pglite', dataDir: undefined });
  });
  afterAll(async () => {
    await db.close();
    fs.rmSync(releasedDir, { recursive: true, force: true });
  });

  it('are numbered without a gap', () => {
    const numbers = fs.readdirSync(MIGRATIONS_DIR).filter((name) => name.endsWith('.sql')).sort().map((name) => Number(name.slice(0, 3)));
    expect(numbers).toEqual(numbers.map((_, index) => index + 1));
  });

  it('apply nothing again to a database migrated under the names an earlier release gave them (only migrations added since), and keep its record under the new names', async () => {
    const current = fs.readdirSync(MIGRATIONS_DIR).filter((name) => name.endsWith('.sql')).sort();
    expect(await migrate(db, releasedDir)).toEqual(Object.values(RELEASED_NAMES).sort());
    expect(await migrate(db)).toEqual(current.filter((name) => !Object.hasOwn(RELEASED_NAMES, name)));
    const recorded = await db.query<{ name: string }>('select name from schema_migrations order by name');
    expect(recorded.rows.map((row) => row.name)).toEqual(current);
  });
});
