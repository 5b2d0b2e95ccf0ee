/**
 * Runs the security campaign (tests/security). `--full` raises the generated bad-input requests from CI's 5,000
 * to 25,000; any other argument goes to vitest. The run ends with the campaign table (case, tried, failed) over
 * every campaign file: tests/security/support/campaign-table.ts.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Requests the full campaign sends; CI's default lives in the test. */
const FULL_CAMPAIGN_REQUESTS = 25_000;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const full = args.includes('--full');
const env = { ...process.env, ...(full && !process.env.SECURITY_CAMPAIGN_REQUESTS ? { SECURITY_CAMPAIGN_REQUESTS: String(FULL_CAMPAIGN_REQUESTS) } : {}) };
const vitest = path.join(ROOT, 'node_modules/.bin/vitest');
const result = spawnSync(vitest, ['run', 'tests/security', ...args.filter((arg) => arg !== '--full')], { cwd: ROOT, env, stdio: 'inherit' });
process.exit(result.status ?? 1);
