import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clusterCache } from '../../server/db/cluster-cache.ts';
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

/** The file the cache in `cacheDir` keeps its cluster in. */
function keptFile(cacheDir: string): string {
  const [file] = fs.readdirSync(cacheDir);
  if (!file) throw new Error('no cluster kept');
  return path.join(cacheDir, file);
}

const databases = async (db: Awaited<ReturnType<typeof openPglite>>) =>
  (await db.query<{ datname: string }>('select datname from pg_database order by datname')).rows.map((row) => row.datname);

describe('a new embedded database starts from the cluster the first one kept', () => {
  it('keeps the cluster as initdb left it, and a second new directory starts from it without what the first one wrote', { timeout: SLOW }, async () => {
    const cacheDir = tempDir('cache');
    const clusters = clusterCache(cacheDir);
    const first = await openPglite(path.join(tempDir('first'), 'pglite'), undefined, clusters);
    await first.exec('create table written_by_the_first (id int)');
    await first.close();
    expect(fs.statSync(keptFile(cacheDir)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(cacheDir).mode & 0o777).toBe(0o700);

    const secondDir = path.join(tempDir('second'), 'pglite');
    const second = await openPglite(secondDir, undefined, clusters);
    expect(await databases(second)).toEqual(['postgres', 'template0', 'template1']);
    expect((await second.query("select to_regclass('written_by_the_first') as found")).rows).toEqual([{ found: null }]);
    await second.exec('create table written_by_the_second (id int)');
    await second.close();
    expect(fs.readFileSync(path.join(secondDir, 'PG_VERSION'), 'utf8').trim()).toMatch(/^\d+$/);

    const reopened = await openPglite(secondDir, undefined, clusters);
    expect((await reopened.query("select to_regclass('written_by_the_second') is not null as found")).rows).toEqual([{ found: true }]);
    await reopened.close();
  });

  it('drops a kept cluster that cannot be loaded, runs initdb instead, and keeps the new one', { timeout: SLOW }, async () => {
    const cacheDir = tempDir('cache');
    const clusters = clusterCache(cacheDir);
    await (await openPglite(path.join(tempDir('seed'), 'pglite'), undefined, clusters)).close();
    const file = keptFile(cacheDir);
    fs.writeFileSync(file, 'not a cluster');

    const db = await openPglite(path.join(tempDir('after-damage'), 'pglite'), undefined, clusters);
    expect(await databases(db)).toEqual(['postgres', 'template0', 'template1']);
    await db.close();
    expect(fs.readFileSync(file).subarray(0, 13).toString()).not.toBe('not a cluster');
    const fromTheNewOne = clusters.load();
    expect(fromTheNewOne).toBeDefined();
    const next = await openPglite(undefined, fromTheNewOne, clusters);
    expect(await databases(next)).toEqual(['postgres', 'template0', 'template1']);
    await next.close();
  });

  it('opens a directory that already holds a cluster as it is, never from the kept one', { timeout: SLOW }, async () => {
    const cacheDir = tempDir('cache');
    const clusters = clusterCache(cacheDir);
    const dataDir = path.join(tempDir('existing'), 'pglite');
    const db = await openPglite(dataDir, undefined, clusters);
    await db.exec('create table kept_in_this_directory (id int)');
    await db.close();
    const kept = fs.readFileSync(keptFile(cacheDir));

    const reopened = await openPglite(dataDir, undefined, clusters);
    expect((await reopened.query("select to_regclass('kept_in_this_directory') is not null as found")).rows).toEqual([{ found: true }]);
    await reopened.close();
    expect(fs.readFileSync(keptFile(cacheDir)).equals(kept)).toBe(true);
  });
});
