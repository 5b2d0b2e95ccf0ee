/**
 * npm run contract:generate [root]: rewrites what is generated from contract/ (scripts/contract/generated-files.ts)
 * and prints each file it changed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { META_SCHEMA_FILE, withGeneratedChallengeKinds } from './contract/generated-files.ts';

const root = resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)));
const path = join(root, META_SCHEMA_FILE);
const before = readFileSync(path, 'utf8');
const after = withGeneratedChallengeKinds(before);
if (after === before) {
  console.log(`contract:generate: ${META_SCHEMA_FILE} is up to date`);
} else {
  writeFileSync(path, after);
  console.log(`contract:generate: wrote ${META_SCHEMA_FILE}`);
}
