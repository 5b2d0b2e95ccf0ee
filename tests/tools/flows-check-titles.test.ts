import { afterEach, describe, expect, it } from 'vitest';
import { loadProject } from '../../scripts/flows-check/load-project.ts';
import { checkReport } from '../../scripts/flows-check/run-checks.ts';
import { fixtureFlows, type FixtureFiles } from '../server/support/fixture-flows.ts';

type Steps = { steps: Record<string, Record<string, unknown>> };

/** The job-details step of a copy of the project, retitled. */
const retitled = (title: string, titleKeys: string[]): FixtureFiles => ({
  'flows/registration.json': (flow) => {
    Object.assign((flow as Steps).steps['job-details']!, { title, titleKeys });
  },
});

describe('flows:check on tab titles', () => {
  let remove = () => {};
  afterEach(() => remove());
  const problemsOf = (edits: FixtureFiles) => {
    const fixture = fixtureFlows(edits);
    remove = fixture.remove;
    return checkReport(loadProject(fixture.root)).problems;
  };

  it('finds none in the project', () => {
    expect(problemsOf({})).toEqual([]);
  });

  it('catches a title part that has no words in any language', () => {
    expect(problemsOf(retitled('Register | Cost Centre', ['title.register', 'title.costCentre']))).toContainEqual(
      expect.objectContaining({
        file: 'flows/registration.json',
        path: 'steps.job-details.titleKeys[1]',
        message: expect.stringContaining('"Cost Centre" (title.costCentre) has no words in flows/messages/titles/en.json, flows/messages/titles/de.json'),
      }),
    );
  });

  it('catches a title whose parts and keys do not pair up, or whose key has other English words', () => {
    expect(problemsOf(retitled('Register | Job Details', ['title.register']))).toContainEqual(expect.objectContaining({ path: 'steps.job-details.titleKeys' }));
    expect(problemsOf(retitled('Register | Job Details', ['title.register', 'title.success']))).toContainEqual(
      expect.objectContaining({ path: 'steps.job-details.titleKeys[1]', message: expect.stringContaining('reads "Success" in English') }),
    );
  });
});
