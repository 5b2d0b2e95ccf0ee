import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from '../../../server/db/database.ts';
import { openDatabase } from '../../../server/db/open-database.ts';
import { migrate } from '../../../server/db/migrate.ts';
import { openMigratedPglite } from './pglite-template.ts';

/** A backend the store's tests run against: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export interface TestBackend {
  name: 'pglite' | 'pglite-disk' | 'postgres';
  open(): Promise<Database>;
}

/** Each PostgreSQL test database lives in its own schema, so parallel runs never collide. */
function uniqueSchema(): string {
  return `test_${Date.now().toString(36)}_${crypto.randomBytes(4).toString('hex')}`;
}

/** The backends available in this run: in-memory PGlite, PGlite on disk (as the product runs it), PostgreSQL if configured. */
export function testBackends(): TestBackend[] {
  const backends: TestBackend[] = [
    {
      name: 'pglite',
      async open() {
        // Starts from a migrated dump; migrate() then finds nothing pending, unless the dump is out of date.
        const db = await openMigratedPglite();
        await migrate(db);
        return db;
      },
    },
  ];
  backends.push({
    name: 'pglite-disk',
    async open() {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sso-pglite-'));
      const db = await openDatabase({ kind: 'pglite', dataDir });
      await migrate(db);
      return {
        ...db,
        close: async () => {
          await db.close();
          fs.rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  });
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    backends.push({
      name: 'postgres',
      async open() {
        const schema = uniqueSchema();
        const db = await openDatabase({ kind: 'postgres', url, schema });
        await migrate(db);
        const close = db.close.bind(db);
        return {
          ...db,
          close: async () => {
            await db.query(`drop schema if exists ${schema} cascade`);
            await close();
          },
        };
      },
    });
  }
  return backends;
}
