/**
 * The recorder cannot rot: `npm run record` records every committed walk script (tests/fixtures/walks) on a fresh
 * server, and `npm run replay` replays each recording on another fresh server, as QA would run them. The committed
 * fixtures themselves are replayed by e2e/fixture-replay.spec.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { expect, test } from '@playwright/test';
import { ROOT } from '../scripts/fixtures/fixture-files.ts';
import { WALKS_DIR } from '../scripts/fixtures/walk-script.ts';

/** Every walk script, as a path relative to the repository. */
const walks = readdirSync(WALKS_DIR, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => relative(ROOT, join(WALKS_DIR, file)));

/** Runs `npm run <script> -- args`; resolves with its exit code and output, whatever the code. */
function npmRun(script: string, args: readonly string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', script, '--', ...args], { cwd: ROOT, maxBuffer: 20 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

/**
 * How many record-then-replay runs go side by side, each over every n-th walk: two where the machine has the cores
 * for two servers and two browsers at once (CI), which halves the wall time; one on a small machine.
 */
const SHARDS = availableParallelism() >= 4 ? 2 : 1;

/** Records `shard` into a folder of its own and replays the recordings; resolves with the replay's lines. */
async function recordAndReplay(shard: readonly string[]): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sso-recorded-'));
  try {
    const recorded = await npmRun('record', [...shard, '--out-dir', dir]);
    expect(recorded.code, recorded.output).toBe(0);
    const replayed = await npmRun('replay', ['--dir', dir, '--report', join(dir, 'replay-report.html')]);
    // The recording's own listing goes with a divergence: the recordings are gone once the test ends.
    expect(replayed.code, `${recorded.output}\n${replayed.output}`).toBe(0);
    return replayed.output.split('\n').filter((line) => /^[✓✗-] /.test(line));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('every walk script records, and every recording replays on a fresh server', async () => {
  // Per shard, a server per set of flags for each run, one walk after another; each walk takes seconds on a loaded machine.
  test.setTimeout(60_000 + (walks.length / SHARDS) * 2 * 30_000);
  const shards = Array.from({ length: SHARDS }, (_, index) => walks.filter((_walk, at) => at % SHARDS === index));
  const lines = (await Promise.all(shards.map(recordAndReplay))).flat();
  const names = walks.map((walk) => relative(WALKS_DIR, join(ROOT, walk)).replace(/\.json$/, ''));
  expect(lines.map((line) => line.split(/[ :]/)[1]).sort()).toEqual([...names].sort());
});
