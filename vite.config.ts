/**
 * Builds the web app into dist/web, served under /auth/. The markdown parser rjsf imports for
 * rich descriptions is swapped for a plain-text stand-in, flow files ship without their
 * `description`s, and flows marked on-demand load when first shown, to keep the login bundle small.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { stepMessageKeys } from './scripts/flows-check/message-references.ts';
import type { FlowDefinition, StepDefinition } from './src/core/flow-types.ts';

/** What a stub keeps of a step of an on-demand flow: what routing, guards and carried query values read. */
function stubOf(step: StepDefinition): StepDefinition {
  const { route, aliases, title, challenges, guard, init } = step;
  return { route, aliases, title, challenges, guard, ...(init?.query ? { init } : {}), stub: true };
}

const FLOWS_DIR = fileURLToPath(new URL('./flows/', import.meta.url));
const FLOW_FILE = /[\\/]flows[\\/]([^\\/]+)\.json(\?full)?$/;
/** The module src/core/flows.ts imports the on-demand flows' loaders from. */
const ON_DEMAND_FLOWS = 'virtual:on-demand-flows';
const ENGLISH = /[\\/]flows[\\/]messages[\\/]en\.json(\?api-errors)?$/;
/** The server's error wordings: only needed to translate an error into another language (src/core/languages.ts). */
const isApiError = (key: string) => key.startsWith('apiError.');

/** Every flow file, read as written. */
function readFlows(): FlowDefinition[] {
  return fs
    .readdirSync(FLOWS_DIR)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(fs.readFileSync(path.join(FLOWS_DIR, name), 'utf8')) as FlowDefinition);
}

/** The message keys only on-demand flows name: they travel with those flows' chunks, not the first download. */
function onDemandOnlyKeys(flows: readonly FlowDefinition[]): Set<string> {
  const named = (flow: FlowDefinition) => new Set(Object.values(flow.steps).flatMap((step) => stepMessageKeys(step).map(({ key }) => key)));
  const eager = new Set(flows.filter((flow) => flow.loading !== 'on-demand').flatMap((flow) => [...named(flow)]));
  return new Set(flows.filter((flow) => flow.loading === 'on-demand').flatMap((flow) => [...named(flow)].filter((key) => !eager.has(key))));
}

/**
 * Drops the `description` of flows/*.json and their steps: they document the data for people, not for the browser.
 * A flow marked `"loading": "on-demand"` ships as stubs in the first download; its full steps, with the English texts
 * only it names, come as a chunk of their own (`?full`) when one of them first shows (src/core/flows.ts). The English
 * wordings of server errors (`apiError.*`) come with another language's chunk, the only time they are read.
 */
function stripFlowDescriptions(): Plugin {
  const loaders = '\0' + ON_DEMAND_FLOWS;
  return {
    name: 'strip-flow-descriptions',
    enforce: 'pre',
    resolveId: (id) => (id === ON_DEMAND_FLOWS ? loaders : undefined),
    // flowId -> a loader of its full chunk, for the on-demand flows only.
    load(id) {
      if (id !== loaders) return undefined;
      const entries = readFlows()
        .filter((flow) => flow.loading === 'on-demand')
        .map((flow) => `${JSON.stringify(flow.id)}: () => import(${JSON.stringify(`${FLOWS_DIR}${flow.id}.json?full`)}).then((module) => module.default)`);
      return `export default { ${entries.join(', ')} };`;
    },
    transform(code, id) {
      const englishFile = ENGLISH.exec(id);
      if (englishFile) {
        const catalogue = Object.entries(JSON.parse(code) as Record<string, string>);
        if (englishFile[1]) return { code: `export default ${JSON.stringify(Object.fromEntries(catalogue.filter(([key]) => isApiError(key))))};`, map: null };
        const moved = onDemandOnlyKeys(readFlows());
        return { code: JSON.stringify(Object.fromEntries(catalogue.filter(([key]) => !moved.has(key) && !isApiError(key)))), map: null };
      }
      const match = FLOW_FILE.exec(id);
      if (!match) return null;
      const flow = JSON.parse(code) as FlowDefinition;
      delete flow.description;
      for (const step of Object.values(flow.steps)) delete step.description;
      const onDemand = flow.loading === 'on-demand';
      if (!match[2]) {
        const stubs = Object.fromEntries(Object.entries(flow.steps).map(([stepId, step]) => [stepId, stubOf(step)]));
        return { code: JSON.stringify(onDemand ? { ...flow, steps: stubs } : flow), map: null };
      }
      const english = JSON.parse(fs.readFileSync(path.join(FLOWS_DIR, 'messages/en.json'), 'utf8')) as Record<string, string>;
      const ownKeys = onDemand ? [...onDemandOnlyKeys(readFlows())].filter((key) => key in english) : [];
      const messages = Object.fromEntries(ownKeys.map((key) => [key, english[key]]));
      // `?full` is no JSON request to Vite, so its module is written as JavaScript here.
      return { code: `export default ${JSON.stringify({ ...flow, messages })};`, map: null };
    },
  };
}

export default defineConfig({
  base: '/auth/',
  plugins: [react(), stripFlowDescriptions()],
  resolve: {
    alias: [
      { find: /^markdown-to-jsx\/react$/, replacement: fileURLToPath(new URL('./src/ui/plain-markdown.tsx', import.meta.url)) },
      { find: /^fast-uri$/, replacement: fileURLToPath(new URL('./src/ui/uri-resolver.ts', import.meta.url)) },
    ],
  },
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    // The page is served with CSP script-src 'self': no inline module-preload polyfill.
    modulePreload: { polyfill: false },
  },
});
