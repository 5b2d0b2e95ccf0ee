/**
 * The compiled flow graph of a project folder, for Node (the server, the web build, the scripts and the tests): every
 * flow file of flows/ compiled once (contract/flow-graph.ts), with a content hash of everything the flows are made
 * of (the flow files, their words, the route table, the form schemas and the meta-schema). The web build embeds the
 * hash; the server refuses to serve a build made from other flows.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FlowDefinition } from './flow-file.ts';
import { compileFlowGraph, type FlowGraph } from './flow-graph.ts';

/** The file of a web build that names the flows it was built from: `{ "hash": … }`. */
export const WEB_BUILD_FLOWS_FILE = 'flow-graph.json';

/** The folders, under a project root, whose JSON files make the flows. */
const FLOW_FOLDERS = ['flows', 'schemas'];

/** The flows of a project folder, compiled. */
export interface CompiledFlows {
  /** SHA-256 (hex) over the path and bytes of every JSON file under flows/ and schemas/. */
  hash: string;
  flows: readonly FlowDefinition[];
  graph: FlowGraph;
}

/** Every JSON file under `dir`, relative to `root`, sorted (with / separators, so the hash is the same everywhere). */
function jsonFiles(root: string, dir: string): string[] {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return [];
  return fs
    .readdirSync(full, { withFileTypes: true })
    .flatMap((entry) => {
      const relative = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return jsonFiles(root, relative);
      return entry.name.endsWith('.json') ? [relative] : [];
    })
    .sort();
}

/** The content hash of the flows under `root`. */
export function flowsHash(root: string): string {
  const hash = createHash('sha256');
  for (const file of FLOW_FOLDERS.flatMap((dir) => jsonFiles(root, dir))) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** The flow files of `root`/flows, in file-name order. */
export function readFlowFiles(root: string): FlowDefinition[] {
  const folder = path.join(root, 'flows');
  return fs
    .readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(fs.readFileSync(path.join(folder, name), 'utf8')) as FlowDefinition);
}

/** Compiles the flows of the project folder `root`. */
export function compileFlows(root: string): CompiledFlows {
  const flows = readFlowFiles(root);
  return { hash: flowsHash(root), flows, graph: compileFlowGraph(flows) };
}
