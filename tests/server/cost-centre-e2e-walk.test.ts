/**
 * The browser walks take a step added as JSON: over the cost-centre fixture's flows (its flow edit, form schema, words
 * and route only), the e2e helpers' plans (e2e/support/flow-examples.ts, the navigation test's way past each step, the
 * sign-up walk's steps and the guarded addresses) include the cost centre, filled from its example inputs, with no
 * code edit. What only a browser shows (the screen itself) is the jsdom walk's (cost-centre-web-walk.test.ts).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { CODE_SENT, flowExamples } from '../../e2e/support/flow-examples.ts';
import { wayPast } from '../../e2e/support/navigation-passes.ts';
import { costCentreFlows } from './support/cost-centre-fixture.ts';

describe('the e2e walks over a cost-centre step added as JSON only', () => {
  const fixture = costCentreFlows();
  afterAll(() => fixture.remove());
  const examples = flowExamples(fixture.root);

  it('the sign-up walk fills the cost centre after job details, up to the mailed code', () => {
    const { steps, stopsAt } = examples.walk('register', CODE_SENT, { email: 'grace@example.com', password: 'Copper-Meadow-77?' });
    expect(steps.map((step) => step.id)).toEqual(['register', 'job-details', 'cost-centre']);
    expect(steps[0]?.fields).toContainEqual({ label: 'Email', value: 'grace@example.com' });
    expect(steps[2]).toEqual({ id: 'cost-centre', title: 'Register | Cost Centre', fields: [{ label: 'Cost centre', value: 'CC-4711' }], submit: 'Continue' });
    expect(stopsAt).toBe('register-verification');
    expect(examples.single(stopsAt, '123456').fields).toEqual([{ label: 'Verification code', value: '123456' }]);
  });

  it('the navigation test has a way past the cost centre, and the project without it has none', () => {
    expect(wayPast('cost-centre', examples)).toBeTypeOf('function');
    expect(wayPast('cost-centre')).toBeUndefined();
  });

  it('the registration spec opens the cost centre by its address and expects register', () => {
    expect(examples.guarded('registration')).toContainEqual({ id: 'cost-centre', route: 'cost-centre', otherwise: { id: 'register', route: 'register', title: 'Register' } });
  });
});
