import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clusterCache } from '../../server/db/cluster-cache.ts';
import type { Database } from '../../server/db/database.ts';
import { openPglite } from '../../server/db/pglite.ts';

const SLOW = 120_000;
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `sso-cluster-${label}-`));
  dirs.push(dir);
  return dir;
}

/** The cluster the cache in `cacheDir` keeps. */
function keptCluster(cacheDir: string): string {
  const entries = fs.readdirSync(cacheDir);
  expect(entries).toHaveLength(1);
  return path.join(cacheDir, entries[0] ?? '');
}

const databases = async (db: Database) => (await db.query<{ datname: string }>('select datname from pg_database order by datname')).rows.map((row) => row.datname);
const hasTable = async (db: Database, table: string) => (await db.query<{ found: boolean }>('select to_regclass($1) is not null as found', [table])).rows[0]?.found;

describe('a new embedded database on disk starts as a copy of the cluster kept beside the code', () => {
  it('keeps the cluster as initdb left it, owner-only, and each new directory starts from it without what another wrote', { timeout: SLOW }, async () => {
    const cacheDir = tempDir('cache');
    const clusters = clusterCache(cacheDir);
    const firstDir = path.join(tempDir('first'), 'pglite');
    const first = await openPglite(firstDir, undefined, clusters);
    await first.exec('create table written_by_the_first (id int)');
    await first.close();
    expect(fs.statSync(cacheDir).mode & 0o777).toBe(0o700);
    expect(fs.readdirSync(keptCluster(cacheDir))).toContain('PG_VERSION');

    const secondDir = path.join(tempDir('second'), 'pglite');
    const second = await openPglite(secondDir, undefined, clusters);
    expect(await databases(second)).toEqual(['postgres', 'template0', 'template1']);
    expect(await hasTable(second, 'written_by_the_first')).toBe(false);
    await second.exec('create table written_by_the_second (id int)');
    await second.close();

    for (const [dataDir, own, other] of [
      [firstDir, 'written_by_the_first', 'written_by_the_second'],
      [secondDir, 'written_by_the_second', 'written_by_the_first'],
    ] as const) {
      const reopened = await openPglite(dataDir, undefined, clusters);
      expect([await hasTable(reopened, own), await hasTable(reopened, other)]).toEqual([true, false]);
      await reopened.close();
    }
  });

  it('drops a kept cluster whose copy fails to open, runs initdb instead, and keeps a sound one for the next', { timeout: SLOW }, async () => {
    const cacheDir = tempDir('cache');
    const clusters = clusterCache(cacheDir);
    await (await openPglite(path.join(tempDir('seed'), 'pglite'), undefined, clusters)).close();
    const kept = keptCluster(cacheDir);
    fs.writeFileSync(path.join(kept, 'global', 'pg_control'), 'not a control file');

    const afterDamage = await openPglite(path.join(tempDir('after-damage'), 'pglite'), undefined, clusters);
    expect(await databases(afterDamage)).toEqual(['postgres', 'template0', 'template1']);
    await afterDamage.close();
    expect(fs.existsSync(kept)).toBe(false);

    const next = await openPglite(path.join(tempDir('next'), 'pglite'), undefined, clusters);
    expect(await databases(next)).toEqual(['postgres', 'template0', 'template1']);
    await next.close();
    expect(fs.statSync(path.join(keptCluster(cacheDir), 'global', 'pg_control')).size).toBeGreaterThan('not a control file'.length);
  });

  it('opens a directory that already holds a cluster as it is, never from the kept one', { timeout: SLOW }, async () => {
    const clusters = clusterCache(tempDir('cache'));
    const dataDir = path.join(tempDir('existing'), 'pglite');
    const db = await openPglite(dataDir, undefined, clusters);
    await db.exec('create table kept_in_this_directory (id int)');
    await db.close();

    const reopened = await openPglite(dataDir, undefined, clusters);
    expect(await hasTable(reopened, 'kept_in_this_directory')).toBe(true);
    await reopened.close();
  });

  it('runs initdb in the directory itself when the cache cannot be written', { timeout: SLOW }, async () => {
    // Under a file, so no directory can be made there, whoever runs the test (root ignores a read-only mode).
    const notADirectory = path.join(tempDir('unwritable'), 'a-file');
    fs.writeFileSync(notADirectory, '');
    const clusters = clusterCache(path.join(notADirectory, 'cache'));
    const dataDir = path.join(tempDir('uncached'), 'pglite');
    const db = await openPglite(dataDir, undefined, clusters);
    expect(await databases(db)).toEqual(['postgres', 'template0', 'template1']);
    await db.exec('create table written_here (id int)');
    await db.close();
    const reopened = await openPglite(dataDir, undefined, clusters);
    expect(await hasTable(reopened, 'written_here')).toBe(true);
    await reopened.close();
  });
});
