/**
 * docs/flows.md "Add a step" names exactly the files a step added as data touches: the files its generated table
 * lists are the files the cost-centre fixture changes when installed (compared byte for byte with the project's).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addStepFiles } from '../../scripts/docs-generate/add-step-files.ts';
import { costCentreFlows } from './support/cost-centre-fixture.ts';

const PROJECT = path.resolve(import.meta.dirname, '../..');

/** Every file under `dir` of `root`, relative to `root`. */
function filesUnder(root: string, dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(root, relative) : [relative];
  });
}

describe('docs/flows.md "Add a step"', () => {
  const fixture = costCentreFlows();
  afterAll(() => fixture.remove());

  it('names every file the cost-centre step changes, and no other', () => {
    const changed = ['flows', 'schemas'].flatMap((dir) => filesUnder(fixture.root, dir)).filter((file) => {
      const original = path.join(PROJECT, file);
      return !fs.existsSync(original) || !fs.readFileSync(original).equals(fs.readFileSync(path.join(fixture.root, file)));
    });
    const named = [...addStepFiles(PROJECT).matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]);
    expect(named.sort()).toEqual(changed.sort());
    expect(addStepFiles(PROJECT)).toContain(`${changed.length} files, all data`);
  });

  it('is the generated block in the doc', () => {
    expect(fs.readFileSync(path.join(PROJECT, 'docs/flows.md'), 'utf8')).toContain(addStepFiles(PROJECT));
  });
});
