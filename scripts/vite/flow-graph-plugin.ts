/**
 * `virtual:flow-graph`: the compiled flow graph (contract/flow-sources.ts, the same compile the server and the scripts
 * read) as the web app needs it: the content hash of the flows it is built from, and each guarded step's guard. The
 * build also writes the hash to dist/web/flow-graph.json, where the server checks it at start.
 */
import path from 'node:path';
import type { Plugin } from 'vite';
import { compileFlows, WEB_BUILD_FLOWS_FILE, type CompiledFlows } from '../../contract/flow-sources.ts';

const MODULE = 'virtual:flow-graph';
const RESOLVED = `\0${MODULE}`;

/** The part of the compiled graph the browser reads: the hash, and the guard of each guarded step. */
export function webFlowGraph(compiled: CompiledFlows): { hash: string; guards: Record<string, { from?: readonly string[]; otherwise: string }> } {
  const guards = Object.fromEntries(Object.values(compiled.graph.steps).flatMap((step) => (step.guard ? [[step.id, step.guard]] : [])));
  return { hash: compiled.hash, guards };
}

/** Serves `virtual:flow-graph` from the flows under `root`, and writes their hash into the build. */
export function flowGraphPlugin(root: string): Plugin {
  let compiled: CompiledFlows | undefined;
  return {
    name: 'flow-graph',
    buildStart() {
      compiled = compileFlows(root);
    },
    resolveId: (id) => (id === MODULE ? RESOLVED : null),
    load(id) {
      if (id !== RESOLVED) return null;
      compiled = compileFlows(root);
      for (const flow of compiled.flows) this.addWatchFile(path.join(root, 'flows', `${flow.id}.json`));
      const { hash, guards } = webFlowGraph(compiled);
      return `export const hash = ${JSON.stringify(hash)};\nexport const guards = ${JSON.stringify(guards)};\n`;
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: WEB_BUILD_FLOWS_FILE, source: `${JSON.stringify({ hash: (compiled ?? compileFlows(root)).hash })}\n` });
    },
  };
}
