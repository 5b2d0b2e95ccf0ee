// @vitest-environment node
/**
 * `npm start` builds the web app again when what it is built from changed since the last build (after a `git pull`),
 * and only then: scripts/build-freshness.ts, read against files with set times.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILD_INPUTS, BUILD_STAMP, inputsNewerThanBuild } from '../../scripts/build-freshness.ts';

const BUILT_AT = new Date('2026-11-01T10:00:00Z');
const BEFORE = new Date('2026-11-01T09:00:00Z');
const AFTER = new Date('2026-11-01T11:00:00Z');

let root: string;

/** A checkout with a build at BUILT_AT and the given files at their times. */
function checkout(files: Record<string, Date>): string {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'sso-build-freshness-'));
  for (const [file, time] of Object.entries({ [BUILD_STAMP]: BUILT_AT, ...files })) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), '');
    fs.utimesSync(path.join(root, file), time, time);
  }
  return root;
}

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("npm start's check of the web app's build", () => {
  it('finds nothing to build when everything the build reads is older than the build', () => {
    const at = checkout({ 'src/ui/step-view.tsx': BEFORE, 'flows/mfa.json': BEFORE, 'index.html': BEFORE });
    expect(inputsNewerThanBuild(at)).toEqual([]);
  });

  it('names what changed after the build: a screen, a flow, a dependency', () => {
    const at = checkout({ 'src/ui/step-view.tsx': AFTER, 'flows/mfa.json': AFTER, 'package-lock.json': AFTER, 'src/main.tsx': BEFORE });
    expect(inputsNewerThanBuild(at)?.sort()).toEqual(['flows/mfa.json', 'package-lock.json', 'src/ui/step-view.tsx']);
  });

  it('leaves out what the build does not read: the server, the tests, the data directory', () => {
    const at = checkout({ 'server/main.ts': AFTER, 'tests/web/languages.test.tsx': AFTER, '.data/base/PG_VERSION': AFTER });
    expect(inputsNewerThanBuild(at)).toEqual([]);
  });

  it('leaves out what the build writes itself among its inputs: the forms\' compiled validators', () => {
    const at = checkout({ 'src/generated/login.validators.js': AFTER, 'src/main.tsx': BEFORE });
    expect(inputsNewerThanBuild(at)).toEqual([]);
  });

  it('answers that there is no build rather than a list, so the caller builds it from scratch', () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'sso-build-freshness-'));
    expect(inputsNewerThanBuild(root)).toBeUndefined();
  });

  it('watches every path the project has among the inputs it names', () => {
    const missing = BUILD_INPUTS.filter((input) => !fs.existsSync(path.join(import.meta.dirname, '..', '..', input)));
    expect(missing).toEqual([]);
  });
});
