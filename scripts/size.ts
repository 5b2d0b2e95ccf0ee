/**
 * npm run size (after npm run build): the gzipped JavaScript a user pays for to log in, per chunk, counted from a
 * real browser: every script fetched from opening a client app's link to the login screen until the credentials
 * are submitted, each URL once (scripts/size/login-scripts.ts). Against the 135 KiB budget, and two well-known
 * sign-in widgets for scale. Exits non-zero over budget.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './fixtures/fixture-files.ts';
import { LOGIN_JS_GZIP_BUDGET, scriptsToLogIn } from './size/login-scripts.ts';

/** Published gzip sizes of other sign-in screens' JavaScript, for scale. */
const ANCHORS = [
  { name: "Clerk's sign-in", kilobytes: 252 },
  { name: 'Auth0 Lock', kilobytes: 200 },
];

const kilobytes = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

if (!existsSync(join(ROOT, 'dist', 'web', 'index.html'))) {
  console.error('size: dist/web is missing; run `npm run build` first');
  process.exitCode = 1;
} else {
  const scripts = (await scriptsToLogIn()).sort((a, b) => b.gzipBytes - a.gzipBytes);
  const total = scripts.reduce((sum, script) => sum + script.gzipBytes, 0);
  console.log('scripts fetched from a client link to the submitted login (each URL once), gzip:');
  for (const script of scripts) console.log(`  ${script.name.padEnd(40)} ${kilobytes(script.gzipBytes)}`);
  console.log(
    `login screen JavaScript: ${kilobytes(total)} gzip in ${scripts.length} scripts (${(total / 1024).toFixed(1)} KiB of the ${LOGIN_JS_GZIP_BUDGET / 1024} KiB budget, ${((LOGIN_JS_GZIP_BUDGET - total) / 1024).toFixed(1)} KiB ${total > LOGIN_JS_GZIP_BUDGET ? 'over' : 'to spare'})`,
  );
  for (const anchor of ANCHORS) console.log(`  for scale: ${anchor.name} ${anchor.kilobytes} KB`);
  if (total > LOGIN_JS_GZIP_BUDGET) process.exitCode = 1;
}
