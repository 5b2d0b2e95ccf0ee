import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';

/** The Node.js major version package.json's `engines` field requires (its lower bound). */
function requiredMajor(): number {
  const manifest = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
  return Number(/^>=(\d+)\./.exec(manifest.engines.node)?.[1]);
}

const major = (version: string) => Number(version.replace(/^v/, '').split('.')[0]);

test('the browser tests run on the Node.js major version package.json engines names', () => {
  process.stdout.write(`Playwright worker runs on Node.js ${process.version}\n`);
  expect(major(process.version)).toBe(requiredMajor());
});

test('every server Playwright started runs on the Node.js major version package.json engines names', () => {
  const dataDirs = [process.env.E2E_DATA_DIR, process.env.E2E_PICKER_DATA_DIR, process.env.E2E_MFA_DATA_DIR];
  for (const dataDir of dataDirs) {
    if (!dataDir) throw new Error('playwright.config.ts exports each server data dir');
    // The server writes its pid into the admin file; the executable behind that pid is the runtime it runs on.
    const { pid } = JSON.parse(fs.readFileSync(path.join(dataDir, 'admin.json'), 'utf8')) as { pid: number };
    const executable = fs.readlinkSync(`/proc/${pid}/exe`);
    const version = execFileSync(executable, ['--version'], { encoding: 'utf8' }).trim();
    process.stdout.write(`server pid ${pid} runs on ${executable} (Node.js ${version})\n`);
    expect(major(version)).toBe(requiredMajor());
  }
});
