// @vitest-environment node
/** Generic engine features the MFA steps brought: step variants, catalogue labels for choices. */
import { describe, expect, it } from 'vitest';
import { readChoices } from '../../src/engine/choices.ts';
import type { FlowDefinition, Step } from '../../src/engine/flow-types.ts';
import { buildRegistry } from '../../src/engine/step-registry.ts';
import { applyVariants, variantKey } from '../../contract/step-variants.ts';

const step: Step = {
  id: 'choice',
  flowId: 'demo',
  route: 'choice',
  title: 'Signing in',
  titleKeys: [],
  call: { method: 'POST', path: 'sign-in/choice' },
  variants: [
    { when: { challenge: 'MFA_SETUP' }, title: 'Setting up', call: { method: 'POST', path: 'setup/choice' } },
    { when: { equals: { field: 'parameters.registration', value: true } }, call: { method: 'POST', path: 'sign-up/choice' } },
  ],
};

describe('step variants', () => {
  it.each([
    ['no answer', undefined, 'Signing in', 'sign-in/choice', ''],
    ['an answer no variant names', { challenge: 'SELECT_MFA_TYPE' }, 'Signing in', 'sign-in/choice', ''],
    ['the setup challenge', { challenge: 'MFA_SETUP' }, 'Setting up', 'setup/choice', '0'],
    ['the setup challenge during sign-up', { challenge: 'MFA_SETUP', parameters: { registration: true } }, 'Setting up', 'sign-up/choice', '0,1'],
  ] as const)('after %s show the title and call of every variant that holds, in order', (_case, response, title, path, key) => {
    const shown = applyVariants(step, response, {});
    expect([shown.title, shown.call?.path, variantKey(step, response, {})]).toEqual([title, path, key]);
  });
});

describe('choices labelled from the catalogue', () => {
  it('words each item by the message its value names, filled from the item, and leaves out values without one', () => {
    // Keys of the first download's catalogue (the MFA texts come with their flow's chunk).
    const source = { parameter: 'availableChoices', value: 'type', labels: { email: 'app.signingInTo', totp: 'field.password.label' } };
    const parameters = { availableChoices: [{ type: 'email', client: 'Merchant Portal' }, { type: 'totp' }, { type: 'carrier-pigeon' }] };
    expect(readChoices(source, parameters)).toEqual([
      { value: 'email', label: 'Signing in to Merchant Portal' },
      { value: 'totp', label: 'Password' },
    ]);
  });
});
