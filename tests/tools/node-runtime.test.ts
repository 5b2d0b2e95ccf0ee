import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The Node.js major version package.json's `engines` field requires (its lower bound). */
function requiredMajor(): number {
  const manifest = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
  const match = /^>=(\d+)\./.exec(manifest.engines.node);
  if (!match?.[1]) throw new Error(`engines.node is not a ">=N.x.y <M" range: ${manifest.engines.node}`);
  return Number(match[1]);
}

const major = (version: string) => Number(version.replace(/^v/, '').split('.')[0]);

describe('the Node.js runtime', () => {
  it('runs this test worker on the major version package.json engines names', () => {
    process.stdout.write(`vitest worker runs on Node.js ${process.version}\n`);
    expect(major(process.version)).toBe(requiredMajor());
  });

  it('gives child processes started by name (node on PATH) the same pinned runtime', () => {
    const childVersion = execFileSync('node', ['--version'], { encoding: 'utf8' }).trim();
    expect(major(childVersion)).toBe(requiredMajor());
  });

  it('requires the Node.js LTS line oidc-provider supports', () => {
    expect(requiredMajor()).toBe(24);
  });
});
