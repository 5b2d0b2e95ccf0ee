/**
 * The web app built from the flows the studio shows (its copy, or the project's flows as they are now), for its walks
 * and replays: the real server must serve the screens as edited, not the last `npm run build` of dist/web. One build
 * per content of the flows (their hash), kept for the studio's life, so walking again after no edit starts at once.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, loadConfigFromFile, type PluginOption } from 'vite';
import { flowsHash } from '../../contract/flow-sources.ts';
import type { FlowsCopy } from '../fixtures/live-server.ts';
import { flowGraphPlugin } from '../vite/flow-graph-plugin.ts';
import { rebuildValidators, studioPlugin } from './studio-plugin.ts';
import type { StudioRoots } from './studio-state.ts';

const builds = new Map<string, Promise<string>>();
let folder: string | undefined;

/** The plugins of `option`, arrays (react() gives one) flattened. */
function flatPlugins(option: PluginOption): PluginOption[] {
  return Array.isArray(option) ? option.flatMap((inner: PluginOption) => flatPlugins(inner)) : [option];
}

/** A plugin's name. */
const nameOf = (plugin: PluginOption): string | undefined => (plugin && typeof plugin === 'object' && 'name' in plugin ? plugin.name : undefined);

/** Builds the web app from `roots.flowsRoot` into `outDir`: the project's Vite config, its flows and form schemas read from the copy. */
async function buildInto(roots: StudioRoots, outDir: string): Promise<string> {
  rebuildValidators(roots);
  const loaded = await loadConfigFromFile({ command: 'build', mode: 'production' }, join(roots.projectRoot, 'vite.config.ts'), roots.projectRoot, 'silent');
  const config = loaded?.config ?? {};
  // The flow graph (guards, and the hash the server checks) must be the copy's, not the project's.
  const plugins = [studioPlugin(roots), flowGraphPlugin(roots.flowsRoot), ...flatPlugins(config.plugins ?? []).filter((plugin) => nameOf(plugin) !== 'flow-graph')];
  await build({ ...config, configFile: false, root: roots.projectRoot, logLevel: 'warn', plugins, build: { ...config.build, outDir, emptyOutDir: true } });
  return outDir;
}

/** The flows the studio shows and the web app built from them now, building it unless this content was built before. */
export async function webFromCopy(roots: StudioRoots): Promise<FlowsCopy> {
  const hash = flowsHash(roots.flowsRoot);
  folder ??= mkdtempSync(join(tmpdir(), 'sso-studio-web-'));
  const outDir = join(folder, hash.slice(0, 16));
  const built = builds.get(hash) ?? buildInto(roots, outDir);
  builds.set(hash, built);
  // A failed build is tried again next time (the flows may be fixed by then).
  built.catch(() => builds.delete(hash));
  await built;
  if (!existsSync(join(outDir, 'index.html'))) throw new Error(`the web app was not built from ${roots.flowsRoot}`);
  return { flowsRoot: roots.flowsRoot, webDir: outDir };
}
