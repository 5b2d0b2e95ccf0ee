/**
 * Whether the web app's build (dist/web) is older than what it is built from, for `npm start` (scripts/ensure-build.ts):
 * after a `git pull` the build on disk still has the old screens, and nothing else would notice (the server checks
 * only that the flows it enforces are the ones the build was made from). Node's own modules only, like its caller.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The build's first output: Vite writes it on every build, before the prerendered page. */
export const BUILD_STAMP = 'dist/web/index.html';

/** What `npm run build` reads: the app, its data, the build's own configuration and scripts, and the dependencies. */
export const BUILD_INPUTS = [
  'src',
  'flows',
  'schemas',
  'contract',
  'flags',
  'public',
  'scripts/vite',
  'index.html',
  'vite.config.ts',
  'scripts/build-validators.ts',
  'scripts/prerender.ts',
  'scripts/prerendered-page.ts',
  'scripts/inline-logo.ts',
  'package-lock.json',
];

/**
 * What the build writes among its inputs: the forms' validators, compiled from schemas/forms by
 * scripts/build-validators.ts (and again by the web tests' setup), so never a reason to build.
 */
const BUILD_WRITES = ['src/generated'];

/** The files under `entry` (a file or a folder), each once, but for those under `skipped`; nothing for a path that is not there. */
function filesUnder(entry: string, skipped: ReadonlySet<string>): string[] {
  if (skipped.has(entry)) return [];
  let stat: fs.Stats;
  try {
    stat = fs.statSync(entry);
  } catch {
    return [];
  }
  if (!stat.isDirectory()) return [entry];
  return fs.readdirSync(entry, { withFileTypes: true }).flatMap((child) => filesUnder(path.join(entry, child.name), skipped));
}

/** The files of the build's inputs under `root` changed since the build, relative to `root`; undefined when there is no build. */
export function inputsNewerThanBuild(root: string, inputs: readonly string[] = BUILD_INPUTS): string[] | undefined {
  let built: number;
  try {
    built = fs.statSync(path.join(root, BUILD_STAMP)).mtimeMs;
  } catch {
    return undefined;
  }
  const skipped = new Set(BUILD_WRITES.map((written) => path.join(root, written)));
  return inputs.flatMap((input) => filesUnder(path.join(root, input), skipped)).filter((file) => fs.statSync(file).mtimeMs > built).map((file) => path.relative(root, file));
}
