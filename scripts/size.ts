/**
 * npm run size: the gzipped JavaScript the login screen downloads before it can render and submit
 * (index.html's entry module and the chunks it preloads, from dist/web: run npm run build first),
 * against the 135 KiB budget and two well-known sign-in widgets for scale.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = fileURLToPath(new URL('../dist/web', import.meta.url));
const BUDGET_BYTES = 135 * 1024;
/** Published gzip sizes of other sign-in screens' JavaScript, for scale. */
const ANCHORS = [
  { name: "Clerk's sign-in", kilobytes: 252 },
  { name: 'Auth0 Lock', kilobytes: 200 },
];

/** The scripts index.html loads up front, with their gzipped sizes. */
function initialScripts(): Array<{ name: string; bytes: number }> {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  return [...html.matchAll(/(?:src|href)="\/auth\/assets\/([^"]+\.js)"/g)].map(([, name = '']) => ({
    name,
    bytes: gzipSync(readFileSync(join(dist, 'assets', name)), { level: 9 }).length,
  }));
}

const kilobytes = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

if (!existsSync(join(dist, 'index.html'))) {
  console.error('size: dist/web is missing; run `npm run build` first');
  process.exitCode = 1;
} else {
  const scripts = initialScripts();
  const total = scripts.reduce((sum, script) => sum + script.bytes, 0);
  for (const script of scripts) console.log(`  ${script.name.padEnd(32)} ${kilobytes(script.bytes)}`);
  console.log(`login screen JavaScript: ${kilobytes(total)} gzip (${(total / 1024).toFixed(1)} KiB of the ${BUDGET_BYTES / 1024} KiB budget, ${((BUDGET_BYTES - total) / 1024).toFixed(1)} KiB to spare)`);
  for (const anchor of ANCHORS) console.log(`  for scale: ${anchor.name} ${anchor.kilobytes} KB`);
  if (total > BUDGET_BYTES) process.exitCode = 1;
}
