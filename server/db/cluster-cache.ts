/**
 * A freshly initialised embedded cluster, kept once per PGlite version, that a new data directory starts from instead
 * of running PostgreSQL's initdb again: initdb took 4.9 s and 8.3 s of CPU here, loading the kept cluster 2.0 s and
 * 2.4 s. Every fresh server pays it: the QA scripts' (`npm run record`, `npm run replay`, the studio) and the tests'.
 *
 * The cluster is kept beside the code, in node_modules/.cache, readable by its owner only: a cluster is code to the
 * database (functions, triggers), so it must be as trusted as the code that loads it, never in a shared temp directory.
 * It is the cluster as initdb leaves it, before any of our migrations, which run on it as on any new cluster.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';

/** Where kept clusters go, and how they are named. */
export interface ClusterCache {
  /** The kept cluster, if there is one. */
  load(): Blob | undefined;
  /** Keeps `pg`'s cluster, freshly initialised, unless one is kept already; a cache that cannot be written is skipped. */
  keep(pg: PGlite): Promise<void>;
  /** Drops the kept cluster (one that failed to load). */
  drop(): void;
}

/** The installed PGlite's version: a cluster from another version is never loaded. */
function pgliteVersion(): string {
  const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
  const manifest = JSON.parse(fs.readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8')) as { version: string };
  return manifest.version;
}

/** Kept clusters in `directory`. */
export function clusterCache(directory: string): ClusterCache {
  const file = path.join(directory, `pglite-${pgliteVersion()}-cluster.tar`);
  return {
    load() {
      try {
        return new Blob([fs.readFileSync(file)]);
      } catch {
        return undefined;
      }
    },
    async keep(pg) {
      if (fs.existsSync(file)) return;
      try {
        const dump = Buffer.from(await (await pg.dumpDataDir('none')).arrayBuffer());
        fs.mkdirSync(directory, { recursive: true, mode: 0o700 });
        // Written whole and renamed, so a process starting beside this one never loads half a cluster.
        const partial = `${file}.${process.pid}.partial`;
        fs.writeFileSync(partial, dump, { mode: 0o600 });
        fs.renameSync(partial, file);
      } catch {
        // A read-only installation keeps no cluster: each new data directory runs initdb, as it would without one.
      }
    },
    drop() {
      fs.rmSync(file, { force: true });
    },
  };
}

/** The project's own cache: node_modules/.cache/single-sign-on. */
export const projectClusterCache = (): ClusterCache =>
  clusterCache(fileURLToPath(new URL('../../node_modules/.cache/single-sign-on/', import.meta.url)));
