/**
 * The web tests take a step added as JSON: the cost-centre fixture (its flow edit, form schema, words and route only)
 * installed in a copy of the project, whose code and web tests are the project's unchanged, passes the registration
 * walk (tests/web/registration-walk.test.tsx), the registration steps, the registration's survival of a reload, and the
 * route table; and they walk, reload and open by its address the cost centre.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { costCentreFlows } from './support/cost-centre-fixture.ts';
import { asWholeProject } from './support/fixture-project.ts';

/** Copying the project and running a jsdom walk in it takes minutes on a loaded machine; this is no speed goal. */
const WALK = { timeout: 600_000 };

describe('a cost-centre step added as JSON only', () => {
  const fixture = costCentreFlows();
  afterAll(() => fixture.remove());

  it('is walked by the web registration tests and the route table with no code or test edit', WALK, () => {
    asWholeProject(fixture.root);
    const files = ['registration-walk.test.tsx', 'registration-steps.test.tsx', 'registration-survives-reload.test.tsx', 'route-table.test.tsx'].map((file) => path.join(fixture.root, 'tests/web', file));
    const vitest = path.join(fixture.root, 'node_modules/vitest/vitest.mjs');
    const run = spawnSync(process.execPath, [vitest, 'run', '--project', 'web', ...files, '--reporter', 'verbose'], { cwd: fixture.root, encoding: 'utf8', env: { ...process.env, CI: '1' } });
    const output = `${run.stdout}\n${run.stderr}`;
    expect(output, output).toContain('a reload of cost-centre keeps it');
    expect(output, output).toContain('sends a user who opens cost-centre by its address to register');
    expect(output, output).toContain('going back from the code screen to cost-centre finds what was typed there');
    expect(output, output).toContain('/auth/cost-centre ends where expected, titled');
    expect(run.status, output).toBe(0);
    expect(fs.readFileSync(path.join(fixture.root, 'flows/registration.json'), 'utf8')).toContain('"cost-centre"');
  });
});
