import crypto from 'node:crypto';
import { openDatabase, type Database } from '../../../server/db/database.ts';
import { migrate } from '../../../server/db/migrate.ts';

/** A backend the store's tests run against: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export interface TestBackend {
  name: 'pglite' | 'postgres';
  open(): Promise<Database>;
}

/** Each PostgreSQL test database lives in its own schema, so parallel runs never collide. */
function uniqueSchema(): string {
  return `test_${Date.now().toString(36)}_${crypto.randomBytes(4).toString('hex')}`;
}

/** The backends available in this run. */
export function testBackends(): TestBackend[] {
  const backends: TestBackend[] = [
    {
      name: 'pglite',
      async open() {
        const db = await openDatabase({ kind: 'pglite', dataDir: undefined });
        await migrate(db);
        return db;
      },
    },
  ];
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
