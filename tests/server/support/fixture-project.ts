import fs from 'node:fs';
import path from 'node:path';

const PROJECT = path.resolve(import.meta.dirname, '../../..');

/** What of the project a fixture project copies beside its flows and schemas: the code and the web tests, untouched. */
const COPIED = ['src', 'contract', 'scripts', 'public', 'tests/web', 'tests/support', 'tests/fixtures', 'index.html', 'package.json', 'tsconfig.json', 'tsconfig.base.json', 'tsconfig.web.json', 'vite.config.ts', 'vitest.config.ts', 'server/db/wasm-tiering.ts'];

/**
 * Makes the fixture flows folder `root` (from fixtureFlows: flows/ and schemas/ edited) a whole project to run the web
 * tests in: the project's code and web tests copied unchanged beside the fixture's data, the project's node_modules linked.
 */
export function asWholeProject(root: string): void {
  for (const entry of COPIED) {
    fs.cpSync(path.join(PROJECT, entry), path.join(root, entry), { recursive: true, filter: (source) => !source.includes(`${path.sep}generated${path.sep}`) });
  }
  fs.symlinkSync(path.join(PROJECT, 'node_modules'), path.join(root, 'node_modules'), 'dir');
}
