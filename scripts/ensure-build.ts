/**
 * `npm start` runs this first: it builds the web app when the build is missing or older than what it is built from
 * (scripts/build-freshness.ts: after a `git pull`, say), so a second start is immediate. It imports nothing but
 * Node's own modules, so it also runs where only the dependencies are installed (a production install,
 * `npm ci --omit=dev`), where it cannot build and says what to run instead.
 *
 * Run: node scripts/ensure-build.ts
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_STAMP, inputsNewerThanBuild } from './build-freshness.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The build needs the development tools; a production install has none. */
const BUILD_TOOL = 'node_modules/vite/package.json';

/** Runs `npm run build` and ends this script with its status. */
function build(): never {
  const npm = process.env.npm_execpath;
  const run = npm ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: ROOT, stdio: 'inherit' }) : spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  process.exit(run.status ?? 1);
}

const canBuild = fs.existsSync(path.join(ROOT, BUILD_TOOL));
// Undefined when there is no build: what the server serves and cannot start usefully without.
const changed = inputsNewerThanBuild(ROOT);
if (changed === undefined) {
  if (!canBuild) {
    process.stderr.write(`error: the web app is not built (${BUILD_STAMP} missing), and this install has no build tools: run \`npm ci && npm run build\` before \`npm ci --omit=dev\`\n`);
    process.exit(1);
  }
  process.stdout.write(`building the web app (${BUILD_STAMP} missing)\n`);
  build();
}
if (changed.length > 0) {
  const what = `${changed.slice(0, 3).join(', ')}${changed.length > 3 ? ` and ${changed.length - 3} more` : ''}`;
  if (!canBuild) {
    // A production install cannot build; its files' times may say little (copied in any order), so it starts as built.
    process.stderr.write(`warning: the web app was built before ${what} changed; this install has no build tools, so it serves the build it has: run \`npm run build\` where they are\n`);
  } else {
    process.stdout.write(`building the web app again: ${what} changed since the last build\n`);
    build();
  }
}
