/**
 * A flow studio for a test: `npm run studio` on a free port over a temporary copy of flows/ and schemas/, so a test
 * may edit and break flows without touching the repository.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../scripts/fixtures/fixture-files.ts';
import { freePort } from '../../scripts/fixtures/free-port.ts';

/** How long the studio may take to start on a loaded machine (Vite pre-bundles the app's packages on a first start). */
const START_TIMEOUT_MS = 90_000;

/** A running studio over a flows copy. */
export interface TestStudio {
  /** The studio page, e.g. http://127.0.0.1:43127/studio/. */
  url: string;
  /** The copy's folder (holding flows/ and schemas/). */
  flowsRoot: string;
  /** Rewrites the copy's JSON file `file` (relative to the copy) with `change` applied. */
  editJson(file: string, change: (value: Record<string, unknown>) => void): void;
  stop(): Promise<void>;
}

/** Starts the studio (with `env` over the test's environment) over a fresh copy of the project's flows. */
export async function startTestStudio(env: Readonly<Record<string, string>> = {}): Promise<TestStudio> {
  const flowsRoot = mkdtempSync(join(tmpdir(), 'sso-studio-flows-'));
  for (const folder of ['flows', 'schemas']) cpSync(join(ROOT, folder), join(flowsRoot, folder), { recursive: true });
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/studio.ts', '--port', String(port), '--flows', flowsRoot], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(flowsRoot, { recursive: true, force: true });
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the studio did not start:\n${output}`)), START_TIMEOUT_MS);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const started = /Flow studio: (\S+)/.exec(output);
      if (started?.[1]) {
        clearTimeout(timer);
        resolve(started[1]);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`the studio stopped:\n${output}`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  const editJson = (file: string, change: (value: Record<string, unknown>) => void) => {
    const path = join(flowsRoot, file);
    const value = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    change(value);
    writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
  };
  return { url, flowsRoot, editJson, stop };
}
