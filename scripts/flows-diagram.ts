/**
 * npm run flows:diagram [root]: draws every flow in flows/ as docs/flows/<flow-id>.svg (steps as
 * boxes, next rules, links and challenge answers as labelled arrows) and removes diagrams of flows
 * that are gone. The output is byte-for-byte the same for the same flows.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadProject } from './flows-check/load-project.ts';
import { DIAGRAM_DIR, renderFlowDiagrams } from './flows-diagram/render-flows.ts';

const root = resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)));
const diagrams = renderFlowDiagrams(loadProject(root));
const dir = join(root, DIAGRAM_DIR);
mkdirSync(dir, { recursive: true });
for (const name of existsSync(dir) ? readdirSync(dir) : []) {
  if (name.endsWith('.svg') && !diagrams.has(`${DIAGRAM_DIR}/${name}`)) {
    rmSync(join(dir, name));
    console.log(`flows:diagram: removed ${DIAGRAM_DIR}/${name} (no such flow)`);
  }
}
for (const [path, svg] of diagrams) {
  writeFileSync(join(root, path), svg);
  console.log(`flows:diagram: wrote ${path}`);
}
