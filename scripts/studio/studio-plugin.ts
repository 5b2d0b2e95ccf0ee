/**
 * The studio's Vite plugin. With a flows root other than the project (a copy of flows/ and schemas/ in a temporary
 * folder), every import of a project file under flows/ or schemas/ is served from the copy, so the repository is never
 * touched. Saving a flow, schema or word file there reloads what imports it (Vite's own HMR), rebuilds the form
 * validators when a form schema changed, and tells the studio page to read its state (problems, diagrams) again.
 */
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Plugin, ViteDevServer } from 'vite';
import { buildValidators } from '../build-validators.ts';
import { STUDIO_CHANGED_EVENT, STUDIO_FILES_EVENT } from '../../src/studio/studio-types.ts';
import type { StudioRoots } from './studio-state.ts';
import { stateCache, studioRoutes, type StateCache } from './studio-routes.ts';

/** How long after a save the checks run, so the frames fetch the saved files before the checks hold the server. */
const CHECKS_AFTER_MS = 1_000;

/** The folders of a flows root that the studio watches and serves. */
const WATCHED = ['flows', 'schemas'] as const;

/** The copy's file for a project file under flows/ or schemas/, or undefined for any other file. */
export function overlayPath(id: string, roots: StudioRoots): string | undefined {
  if (roots.flowsRoot === roots.projectRoot) return undefined;
  const [file = '', query] = id.split('?');
  const inside = relative(roots.projectRoot, file);
  if (inside.startsWith('..') || !WATCHED.some((folder) => inside.startsWith(`${folder}${sep}`))) return undefined;
  return `${join(roots.flowsRoot, inside)}${query === undefined ? '' : `?${query}`}`;
}

/** Rebuilds the precompiled form validators the renderer loads from the flows root's form schemas. */
export function rebuildValidators(roots: StudioRoots): void {
  buildValidators({ formsDir: join(roots.flowsRoot, 'schemas', 'forms'), outDir: join(roots.projectRoot, 'src', 'generated') });
}

/** Reads the state again after a change of `file`, then tells every studio page to fetch it. */
function announce(server: ViteDevServer, roots: StudioRoots, cache: StateCache, file: string): void {
  const inside = relative(roots.flowsRoot, file);
  if (inside.startsWith('..') || !WATCHED.some((folder) => inside.startsWith(`${folder}${sep}`))) return;
  if (inside.startsWith(join('schemas', 'forms'))) rebuildValidators(roots);
  const data = { file: inside.split(sep).join('/') };
  // The frames render the file as it is now at once; the page's problems follow once the checks have run.
  server.ws.send({ type: 'custom', event: STUDIO_FILES_EVENT, data });
  const changed = () => server.ws.send({ type: 'custom', event: STUDIO_CHANGED_EVENT, data });
  // The checks hold the event loop for a while: the frames' requests for the saved files go first.
  setTimeout(() => void cache.refresh().then(changed, changed), CHECKS_AFTER_MS);
}

/** The plugin for `roots`. */
export function studioPlugin(roots: StudioRoots): Plugin {
  return {
    name: 'flow-studio',
    enforce: 'pre',
    config(config) {
      // The build's small fast-uri stand-in lacks what ajv itself calls, and the dev server loads ajv whole: keep the real one.
      const alias = config.resolve?.alias;
      if (config.resolve && Array.isArray(alias)) config.resolve.alias = alias.filter((entry: { find: unknown }) => !(entry.find instanceof RegExp && entry.find.source.includes('fast-uri')));
    },
    async resolveId(source, importer, options) {
      if (roots.flowsRoot === roots.projectRoot) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      const copy = resolved && overlayPath(resolved.id, roots);
      // A file the copy lacks (one added to the project since) is served from the project.
      return copy && existsSync(copy.split('?')[0] ?? copy) ? { ...resolved, id: copy } : null;
    },
    // A flow or word file reaches the open frames through the studio's own event (they fetch the step and words
    // again and render in place), which is faster than Vite reloading every frame; a form schema still reloads them.
    handleHotUpdate({ file }) {
      const inside = relative(roots.flowsRoot, file);
      return !inside.startsWith('..') && inside.startsWith(`flows${sep}`) ? [] : undefined;
    },
    configureServer(server) {
      if (roots.flowsRoot !== roots.projectRoot) server.watcher.add(WATCHED.map((folder) => join(roots.flowsRoot, folder)));
      const cache = stateCache(roots);
      for (const kind of ['add', 'change', 'unlink'] as const) server.watcher.on(kind, (file: string) => announce(server, roots, cache, file));
      server.middlewares.use(studioRoutes(server, roots, cache));
    },
  };
}
