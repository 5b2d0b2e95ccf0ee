/**
 * flows:check as a whole: the meta-schema check, the runner (shape first, then the table), the
 * real project passing, and the command's output and exit code on a broken copy of it.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkMetaSchema, jsonPath } from '../../scripts/flows-check/check-meta-schema.ts';
import { loadProject } from '../../scripts/flows-check/load-project.ts';
import { formatProblem } from '../../scripts/flows-check/problem.ts';
import { checkReport } from '../../scripts/flows-check/run-checks.ts';

const root = join(import.meta.dirname, '..', '..');
const metaSchema = JSON.parse(readFileSync(join(root, 'schemas', 'flow.schema.json'), 'utf8')) as Record<string, unknown>;
const SUMMARY_OK = /^flows:check: \d+ flows, \d+ steps, no problems$/;

/** A flow file holding one step, as written in `step`. */
const flowWith = (step: Record<string, unknown>) => ({ file: 'flows/x.json', data: { id: 'x', steps: { a: step } } });

describe('the meta-schema check', () => {
  it.each([
    {
      name: 'a misspelt property, and so a missing one',
      step: { route: 'a', titel: 'A', titleKeys: ['title.a'] },
      lines: [
        'flows/x.json:steps.a.title — is missing — add it (see schemas/flow.schema.json#/definitions/step)',
        'flows/x.json:steps.a.titel — is not a known property — use one of: title, panel, call, init, links, …',
      ],
    },
    {
      name: 'a step id that breaks the id pattern',
      step: { route: 'a', title: 'A', titleKeys: ['title.a'], next: [{ go: 'Done' }] },
      lines: ['flows/x.json:steps.a.next[0].go — "Done" does not match ^[a-z][a-z0-9-]*$ — see schemas/flow.schema.json#/definitions/rule/properties/go (A step id in any flow)'],
    },
    {
      name: 'a method outside the enum',
      step: { route: 'a', title: 'A', titleKeys: ['title.a'], call: { method: 'PUT', path: 'x' } },
      lines: ['flows/x.json:steps.a.call.method — is "PUT", which is not allowed — use one of: GET, POST'],
    },
    {
      name: 'a wrong type',
      step: { route: 'a', title: 'A', titleKeys: ['title.a'], terminal: 'yes' },
      lines: ['flows/x.json:steps.a.terminal — must be boolean — see schemas/flow.schema.json#/definitions/step/properties/terminal'],
    },
  ])('reports $name', ({ step, lines }) => {
    expect(checkMetaSchema([flowWith(step)], metaSchema).map(formatProblem)).toEqual(lines);
  });

  it('reports a file that is not JSON at the line it breaks', () => {
    const problems = checkMetaSchema([{ file: 'flows/x.json', data: undefined, syntaxError: { line: 3, message: 'Unexpected token' } }], metaSchema);
    expect(problems.map(formatProblem)).toEqual(['flows/x.json:3 — is not valid JSON (Unexpected token) — fix the syntax near that line']);
  });

  it.each([
    ['/steps/login/next/0/go', 'steps.login.next[0].go'],
    ['/steps/a~1b/route', 'steps.a/b.route'],
    ['', ''],
  ])('writes the pointer %s as the path %s', (pointer, path) => {
    expect(jsonPath(pointer)).toBe(path);
  });
});

describe('flows:check', () => {
  it('finds no problems in this project', () => {
    const report = checkReport(loadProject(root));
    expect(report.problems.map(formatProblem)).toEqual([]);
    expect(report.exitCode).toBe(0);
    expect(report.lines).toHaveLength(1);
    expect(report.lines[0]).toMatch(SUMMARY_OK);
  });

  it('reports only shape problems while a flow does not validate, since the other checks trust the shape', () => {
    const loaded = loadProject(root);
    const broken = { ...loaded, raw: [...loaded.raw, flowWith({ route: 'a', titleKeys: ['title.a'] })] };
    const report = checkReport(broken);
    expect(report.lines.slice(0, -1)).toEqual(['flows/x.json:steps.a.title — is missing — add it (see schemas/flow.schema.json#/definitions/step)']);
    expect(report.lines.at(-1)).toMatch(/^flows:check: \d+ flows, \d+ steps, 1 problem$/);
    expect(report.exitCode).toBe(1);
  });
});

describe('npm run flows:check on a broken copy of the project', () => {
  let copy: string | undefined;
  afterEach(() => {
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  /** Copies flows/ and schemas/ to a temp folder, lets `edit` break the login flow, and runs the command there. */
  function runOnBrokenCopy(edit: (text: string) => string): { status: number | null; lines: string[] } {
    copy = mkdtempSync(join(tmpdir(), 'flows-check-'));
    for (const dir of ['flows', 'schemas']) cpSync(join(root, dir), join(copy, dir), { recursive: true });
    const login = join(copy, 'flows', 'login.json');
    writeFileSync(login, edit(readFileSync(login, 'utf8')));
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'flows-check.ts'), copy], { cwd: root, encoding: 'utf8' });
    return { status: run.status, lines: run.stdout.trim().split('\n') };
  }

  it('prints each problem on one line with a fix, a summary, and exits 1', () => {
    const { status, lines } = runOnBrokenCopy((text) => text.replace('"go": "redirect"', '"go": "redirekt"'));
    expect(status).toBe(1);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^flows\/login\.json:steps\.login\.next\[0\]\.go — points at unknown step "redirekt" — use one of: redirect, /);
    expect(lines[1]).toMatch(/^flows:check: \d+ flows, \d+ steps, 1 problem$/);
  });

  it('reports a flow file that is not JSON instead of crashing', () => {
    const { status, lines } = runOnBrokenCopy((text) => text.replace('"id": "login",', '"id": "login"'));
    expect(status).toBe(1);
    expect(lines[0]).toMatch(/^flows\/login\.json:4 — is not valid JSON \(.+\) — fix the syntax near that line$/);
  });
});
