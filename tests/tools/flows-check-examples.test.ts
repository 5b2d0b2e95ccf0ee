import { afterEach, describe, expect, it } from 'vitest';
import { loadProject } from '../../scripts/flows-check/load-project.ts';
import { checkReport } from '../../scripts/flows-check/run-checks.ts';
import { fixtureFlows } from '../server/support/fixture-flows.ts';

type Steps = { steps: Record<string, Record<string, unknown>> };

describe('flows:check on example inputs', () => {
  let remove = () => {};
  afterEach(() => remove());

  /** The problems of a copy of the project whose job-details step has `examples`. */
  const problemsWith = (examples: unknown) => {
    const fixture = fixtureFlows({
      'flows/registration.json': (flow) => {
        (flow as Steps).steps['job-details']!.examples = examples;
      },
    });
    remove = fixture.remove;
    return checkReport(loadProject(fixture.root)).problems;
  };

  it('catches a valid example the form refuses', () => {
    expect(problemsWith({ valid: { jobTitle: 'Treasurer' } })).toContainEqual(expect.objectContaining({ path: 'steps.job-details.examples.valid' }));
  });

  it('catches an invalid example the form accepts, or one that shows another message than it names', () => {
    const problems = problemsWith({
      valid: { jobTitle: 'Treasurer', department: 'Finance' },
      invalid: [
        { values: { jobTitle: 'Treasurer', department: 'Finance' }, message: 'validation.jobTitle.required' },
        { values: { jobTitle: 'Treasurer' }, message: 'validation.jobTitle.required' },
      ],
    });
    expect(problems).toContainEqual(expect.objectContaining({ path: 'steps.job-details.examples.invalid[0]', message: "the form's schema accepts these values" }));
    expect(problems).toContainEqual(
      expect.objectContaining({ path: 'steps.job-details.examples.invalid[1].message', message: expect.stringContaining('with validation.department.required, not validation.jobTitle.required') }),
    );
  });
});
