/**
 * `npm start` runs this first: it builds the web app only when the build is missing, so a second start is
 * immediate. It imports nothing but Node's own modules, so it also runs where only the dependencies are installed
 * (a production install, `npm ci --omit=dev`), where it cannot build and says what to run instead.
 *
 * Run: node scripts/ensure-build.ts
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** What the server serves and cannot start usefully without. */
const BUILD_OUTPUTS = ['dist/web/index.html'];
/** The build needs the development tools; a production install has none. */
const BUILD_TOOL = 'node_modules/vite/package.json';

const missing = BUILD_OUTPUTS.filter((output) => !fs.existsSync(path.join(ROOT, output)));
if (missing.length > 0) {
  if (!fs.existsSync(path.join(ROOT, BUILD_TOOL))) {
    process.stderr.write(`error: the web app is not built (${missing.join(', ')} missing), and this install has no build tools: run \`npm ci && npm run build\` before \`npm ci --omit=dev\`\n`);
    process.exit(1);
  }
  process.stdout.write(`building the web app (${missing.join(', ')} missing)\n`);
  const npm = process.env.npm_execpath;
  const build = npm ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: ROOT, stdio: 'inherit' }) : spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  process.exit(build.status ?? 1);
}
