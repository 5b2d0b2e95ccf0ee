/**
 * "Replay fixtures": `npm run replay` on the committed fixtures of one flow, in a process of its own (a fresh real
 * server, MFA required, serving the flows the studio shows as edited: web-from-copy.ts), read back one line per fixture; a divergence's HTML report is kept for the studio to show.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StudioReplay } from '../../src/studio/studio-types.ts';
import type { StudioRoots } from './studio-state.ts';
import { webFromCopy } from './web-from-copy.ts';

/** How long a whole flow's replay may take before it is stopped. */
const REPLAY_TIMEOUT_MS = 300_000;

/** Replays the fixtures `fixtures` (case names) of `flow`; `reportDir` receives the report of any divergence. */
export async function replayFlow(roots: StudioRoots, flow: string, fixtures: readonly string[], reportDir: string): Promise<StudioReplay & { reportFile?: string }> {
  const reportFile = join(mkdtempSync(join(reportDir, 'replay-')), 'replay-report.html');
  const names = fixtures.map((name) => `${flow}/${name}`);
  const copy = await webFromCopy(roots);
  const served = ['--flows-root', copy.flowsRoot, '--web-dir', copy.webDir];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/replay.ts', ...names, '--report', reportFile, ...served], { cwd: roots.projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGTERM'), REPLAY_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      const lines = output
        .split('\n')
        .filter((line) => /^[✓✗-] /.test(line))
        .map((text) => ({ fixture: /^[✓✗-] ([^\s:]+)/.exec(text)?.[1] ?? '', passed: text.startsWith('✓'), skipped: text.startsWith('- '), text }));
      const failed = code !== 0 && code !== 1 ? (errors.trim() || `the replay stopped (exit ${String(code)})`) : undefined;
      resolve({ flow, lines, ...(existsSync(reportFile) ? { reportFile } : {}), ...(failed ? { error: failed } : {}) });
    });
  });
}

/** A folder for the studio's replay reports. */
export function reportFolder(): string {
  return mkdtempSync(join(tmpdir(), 'sso-studio-reports-'));
}
