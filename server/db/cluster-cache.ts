/**
 * A freshly initialised embedded cluster, kept once per PGlite version, that a new data directory is copied from
 * instead of running PostgreSQL's initdb again: initdb took 4.9 s and 8.3 s of CPU here, a copy a tenth of a second.
 * Every fresh server pays it: the QA scripts' (`npm run record`, `npm run replay`, the studio) and the tests'.
 *
 * The cluster is kept beside the code, in node_modules/.cache, readable by its owner only: a cluster is code to the
 * database (functions, triggers), so it must be as trusted as the code that loads it, never in a shared temp directory.
 * It is the cluster as initdb leaves it, shut down cleanly and before any of our migrations, which run on the copy as
 * on any new cluster.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

/** Where the kept cluster is. */
export interface ClusterCache {
  /** Fills the empty directory `dataDir` with a copy of the kept cluster, made first if none is; false if it cannot. */
  copyInto(dataDir: string): Promise<boolean>;
  /** Drops the kept cluster, and the copy of it in `dataDir` that failed to open. */
  discard(dataDir: string): void;
}

/** The installed PGlite's version: a cluster from another version is never used. */
function pgliteVersion(): string {
  const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
  const manifest = JSON.parse(fs.readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8')) as { version: string };
  return manifest.version;
}

/** Runs initdb into `cluster`, made whole under another name and renamed, so no process ever copies half of one. */
async function initialise(directory: string, cluster: string): Promise<void> {
  fs.mkdirSync(directory, { recursive: true, mode: 0o700 });
  const partial = `${cluster}.${process.pid}.partial`;
  try {
    const pg = await PGlite.create(`file://${partial}`);
    await pg.close();
    try {
      fs.renameSync(partial, cluster);
    } catch (error) {
      if (!fs.existsSync(cluster)) throw error;
    }
  } finally {
    // Left over when another process kept its cluster first (the rename found one there), or initdb failed.
    fs.rmSync(partial, { recursive: true, force: true });
  }
}

/** Removes what `dataDir` holds, keeping the directory itself. */
function empty(dataDir: string): void {
  for (const entry of fs.readdirSync(dataDir)) fs.rmSync(path.join(dataDir, entry), { recursive: true, force: true });
}

/** The cluster kept in `directory`. */
export function clusterCache(directory: string): ClusterCache {
  // Named on first use: a process that opens no new database on disk never reads PGlite's version.
  let named: string | undefined;
  const cluster = () => (named ??= path.join(directory, `pglite-${pgliteVersion()}-cluster`));
  return {
    async copyInto(dataDir) {
      try {
        if (!fs.existsSync(cluster())) await initialise(directory, cluster());
        fs.cpSync(cluster(), dataDir, { recursive: true });
        return true;
      } catch {
        // A read-only installation keeps no cluster: the new directory runs initdb, as it would without one.
        empty(dataDir);
        return false;
      }
    },
    discard(dataDir) {
      fs.rmSync(cluster(), { recursive: true, force: true });
      empty(dataDir);
    },
  };
}

/** The project's own cache: node_modules/.cache/single-sign-on. */
export const projectClusterCache: ClusterCache = clusterCache(fileURLToPath(new URL('../../node_modules/.cache/single-sign-on/', import.meta.url)));
