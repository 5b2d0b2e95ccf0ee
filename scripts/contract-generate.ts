/**
 * npm run contract:generate [root]: rewrites what is generated from contract/ and the meta-schema
 * (scripts/contract/generated-files.ts, scripts/contract/flow-types.ts) and prints each file it changed.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { META_SCHEMA_FILE, withGeneratedChallengeKinds } from './contract/generated-files.ts';
import { committedFlowTypes, flowTypesOf } from './contract/flow-types.ts';

const root = resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)));

/** Writes `file` (relative to the root) when its text is not `text` already, and says which it was. */
function write(file: string, text: string): void {
  const path = join(root, file);
  if (existsSync(path) && readFileSync(path, 'utf8') === text) {
    console.log(`contract:generate: ${file} is up to date`);
    return;
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  console.log(`contract:generate: wrote ${file}`);
}

// The challenge enum first: the flow file's types carry it.
const metaSchema = withGeneratedChallengeKinds(readFileSync(join(root, META_SCHEMA_FILE), 'utf8'));
write(META_SCHEMA_FILE, metaSchema);
const flowTypes = await flowTypesOf(metaSchema);
for (const [file, text] of flowTypes) write(file, text);
// A concern's file the generator no longer writes would be imported by nobody and drift unseen.
for (const file of committedFlowTypes(root).keys()) {
  if (flowTypes.has(file)) continue;
  rmSync(join(root, file));
  console.log(`contract:generate: removed ${file}`);
}
