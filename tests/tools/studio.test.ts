/**
 * The flow studio's server side: it refuses to start in production, serves a flows copy in place of the project's
 * files, places each flows:check problem beside the step it concerns, and gives its frames the files as saved.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFrameData } from '../../scripts/studio/frame-data.ts';
import { overlayPath } from '../../scripts/studio/studio-plugin.ts';
import { readStudioState } from '../../scripts/studio/studio-state.ts';

const root = join(import.meta.dirname, '..', '..');

function runStudio(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/studio.ts', '--port', '0'], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // A studio that did start would print its address and keep running: stop it, and fail below.
    child.stdout.on('data', () => child.kill('SIGTERM'));
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

describe('npm run studio', () => {
  it('refuses to start with NODE_ENV=production, saying why', async () => {
    const { code, stderr } = await runStudio({ NODE_ENV: 'production' });
    expect(code).toBe(1);
    expect(stderr).toContain('npm run studio is for development only and does not start with NODE_ENV=production');
  });
});

describe('the studio over a copy of the flows', () => {
  let copy: string;
  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'sso-studio-test-'));
    for (const folder of ['flows', 'schemas']) cpSync(join(root, folder), join(copy, folder), { recursive: true });
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it("serves the copy's flow, schema and word files in place of the project's, and nothing else", () => {
    const roots = { projectRoot: root, flowsRoot: copy };
    expect(overlayPath(join(root, 'flows', 'login.json'), roots)).toBe(join(copy, 'flows', 'login.json'));
    expect(overlayPath(`${join(root, 'flows', 'login.json')}?step-index`, roots)).toBe(`${join(copy, 'flows', 'login.json')}?step-index`);
    expect(overlayPath(join(root, 'schemas', 'forms', 'register.schema.json'), roots)).toBe(join(copy, 'schemas', 'forms', 'register.schema.json'));
    expect(overlayPath(join(root, 'src', 'ui', 'step-view.tsx'), roots)).toBeUndefined();
    expect(overlayPath(join(root, 'flows', 'login.json'), { projectRoot: root, flowsRoot: root })).toBeUndefined();
  });

  it('places a dangling next beside its step, with the fix, and nowhere else', { timeout: 60_000 }, async () => {
    const file = join(copy, 'flows', 'registration.json');
    const flow = JSON.parse(readFileSync(file, 'utf8')) as { steps: Record<string, { next: { go: string }[] }> };
    flow.steps['job-details']!.next[0]!.go = 'register-verificaton';
    writeFileSync(file, JSON.stringify(flow));
    const state = await readStudioState({ projectRoot: root, flowsRoot: copy });
    const steps = state.flows.find((candidate) => candidate.id === 'registration')?.steps ?? [];
    const problems = steps.find((step) => step.id === 'job-details')?.problems ?? [];
    expect(problems.some((problem) => problem.path.startsWith('steps.job-details.next') && problem.message.includes('register-verificaton') && problem.fix.includes('register-verification'))).toBe(true);
    expect(steps.filter((step) => step.id !== 'job-details').flatMap((step) => step.problems)).toEqual([]);
    expect(state.otherProblems).toEqual([]);
  });

  it("gives a frame the step and the language's words as the files hold them now", () => {
    const file = join(copy, 'flows', 'messages', 'registration', 'de.json');
    const words = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    writeFileSync(file, JSON.stringify({ ...words, 'register.headline': 'Herzlich willkommen' }));
    const data = readFrameData(copy, 'register', 'de');
    expect(data?.step).toMatchObject({ id: 'register', flowId: 'registration', headline: 'register.headline' });
    expect(data?.words['register.headline']).toBe('Herzlich willkommen');
    expect(readFrameData(copy, 'no-such-step', 'de')).toBeUndefined();
    expect(readFrameData(copy, 'register', '../en')).toBeUndefined();
  });
});
