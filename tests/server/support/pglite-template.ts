/**
 * A migrated embedded database to start test databases from. Creating a PGlite cluster and running every migration
 * costs seconds of CPU per database; loading a dump of one that is already migrated costs a fraction. The dump is
 * kept in the temp directory under a hash of the migrations, so a changed migration makes a new one, and each test
 * process reads it once.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Database } from '../../../server/db/database.ts';
import { MIGRATIONS_DIR, migrate } from '../../../server/db/migrate.ts';
import { openPglite } from '../../../server/db/pglite.ts';

/** A hash of every migration's name and text: the template's identity. */
function migrationsHash(): string {
  const hash = crypto.createHash('sha256');
  for (const name of fs.readdirSync(MIGRATIONS_DIR).sort()) hash.update(name).update(fs.readFileSync(path.join(MIGRATIONS_DIR, name)));
  return hash.digest('hex').slice(0, 16);
}

/** Migrates a cluster on disk and dumps it to `file`, written whole (a rename) so a parallel process never reads half. */
async function buildTemplate(file: string): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sso-pglite-template-'));
  try {
    const db = await openPglite(dataDir);
    await migrate(db);
    await db.close();
    const pg = await PGlite.create(`file://${dataDir}`);
    const dump = await pg.dumpDataDir('gzip');
    await pg.close();
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(partial, file);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

let template: Promise<Blob> | undefined;

async function loadTemplate(): Promise<Blob> {
  const file = path.join(os.tmpdir(), `sso-test-pglite-${migrationsHash()}.tar.gz`);
  if (!fs.existsSync(file)) await buildTemplate(file);
  return new Blob([fs.readFileSync(file)]);
}

/** A new in-memory embedded database with every migration applied. */
export async function openMigratedPglite(): Promise<Database> {
  template ??= loadTemplate();
  return openPglite(undefined, await template);
}
