/**
 * The flows and the step API agree, or the server does not start: a call no route serves (a misspelt path would
 * answer 404) and a step route no flow calls each stop it with the file and the fix; flows:check reports the same.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { compileFlowGraph } from '../../contract/flow-graph.ts';
import { routeMismatches, stepApiRoutes } from '../../server/api/step-api.ts';
import { loadProject } from '../../scripts/flows-check/load-project.ts';
import { checkReport } from '../../scripts/flows-check/run-checks.ts';
import { fixtureFlows } from './support/fixture-flows.ts';
import { startTestApp } from './support/test-app.ts';

type Steps = { steps: Record<string, Record<string, unknown>> };

/** A server start (a database, keys, the provider) can take long on a loaded machine; this is no speed goal. */
const START = { timeout: 120_000 };

/** Registration with the job-details step's call misspelt. */
const misspelt = {
  'flows/registration.json': (flow: Record<string, unknown>) => {
    (flow as Steps).steps['job-details']!.call = { method: 'POST', path: 'register/atributes/job-details' };
  },
};

/** Registration whose resend step no longer calls for a new code. */
const unreached = {
  'flows/registration.json': (flow: Record<string, unknown>) => {
    delete (flow as Steps).steps['register-resend']!.init;
  },
};

describe('the flows and the step API agree', () => {
  let remove = () => {};
  afterEach(() => remove());

  it('on every call and every step route of the project', async () => {
    const project = loadProject(`${import.meta.dirname}/../..`);
    expect(routeMismatches(compileFlowGraph(project.raw.map(({ data }) => data as never)), await stepApiRoutes())).toEqual([]);
  });

  it('or the server refuses to start on a call no route serves, naming the flow file, the step and the fix', START, async () => {
    const fixture = fixtureFlows(misspelt);
    remove = fixture.remove;
    await expect(startTestApp({ flowsRoot: fixture.root })).rejects.toThrow(
      /flows\/registration\.json: step "job-details" calls POST register\/atributes\/job-details, which no route of the step API serves; fix: correct the call's path/,
    );
  });

  it('or the server refuses to start on a step route no flow calls', START, async () => {
    const fixture = fixtureFlows(unreached);
    remove = fixture.remove;
    await expect(startTestApp({ flowsRoot: fixture.root })).rejects.toThrow(/server\/api\/: the step route POST register\/otp is called by no step of any flow/);
  });

  it('and flows:check reports the same before a build', async () => {
    const fixture = fixtureFlows(misspelt);
    remove = fixture.remove;
    const loaded = loadProject(fixture.root);
    const report = checkReport({ ...loaded, base: { ...loaded.base, apiRoutes: await stepApiRoutes() } });
    expect(report.problems).toContainEqual(expect.objectContaining({ file: 'flows/registration.json', path: 'steps.job-details', message: expect.stringContaining('register/atributes/job-details') }));
    expect(report.exitCode).toBe(1);
  });
});
