// @vitest-environment node
/**
 * The flow engine: next-rule conditions, the fallback by challenge, and unknown answers becoming
 * the error step. Uses a small fixture flow so the rules under test are visible here.
 */
import { describe, expect, it } from 'vitest';
import { conditionHolds, type Condition, type Flags } from '../../contract/conditions.ts';
import { resolveNextStep } from '../../src/engine/next-rules.ts';
import type { FlowDefinition, StepResponse } from '../../src/engine/flow-types.ts';
import { buildRegistry } from '../../src/engine/step-registry.ts';

const fixtureFlows: FlowDefinition[] = [
  {
    id: 'fixture',
    steps: {
      start: {
        route: 'start',
        title: 'Start',
        titleKeys: [],
        next: [
          { when: { exists: 'redirect_to' }, go: 'leave' },
          { when: { challenge: 'SMS_MFA', flag: 'disable-sms-mfa' }, go: 'pick' },
          { when: { equals: { field: 'parameters.method', value: 'email' } }, go: 'mail' },
          { when: { in: { field: 'parameters.count', values: [2, 3] } }, go: 'pick' },
        ],
      },
      leave: { route: 'leave', title: 'Leave', titleKeys: [], navigate: 'redirect_to' },
      sms: { route: 'sms', title: 'Sms', titleKeys: [], challenges: ['SMS_MFA'] },
      mail: { route: 'mail', title: 'Mail', titleKeys: [], challenges: ['EMAIL_MFA'] },
      pick: { route: 'pick', title: 'Pick', titleKeys: [], challenges: ['SELECT_MFA_TYPE'] },
      catchall: { route: 'catchall', title: 'Catch', titleKeys: [], next: [{ go: 'mail' }] },
      error: { route: 'error', title: 'Error', titleKeys: [] },
    },
  },
];

const registry = buildRegistry(fixtureFlows);
const deps = (flags: Flags = {}) => ({ registry, flags, errorStep: 'error' });

describe('conditionHolds', () => {
  const response: StepResponse = {
    challenge: 'SMS_MFA',
    redirect_to: 'https://app.example/cb',
    parameters: { method: 'sms', count: 2, empty: null },
  };
  const flags: Flags = { on: true, off: false };

  it.each<[string, Condition, boolean]>([
    ['challenge matches', { challenge: 'SMS_MFA' }, true],
    ['challenge differs', { challenge: 'EMAIL_MFA' }, false],
    ['exists: top-level field present', { exists: 'redirect_to' }, true],
    ['exists: nested field present', { exists: 'parameters.method' }, true],
    ['exists: field missing', { exists: 'parameters.nope' }, false],
    ['exists: null counts as missing', { exists: 'parameters.empty' }, false],
    ['equals: same value', { equals: { field: 'parameters.method', value: 'sms' } }, true],
    ['equals: other value', { equals: { field: 'parameters.method', value: 'email' } }, false],
    ['equals: number is not its string', { equals: { field: 'parameters.count', value: '2' } }, false],
    ['in: value listed', { in: { field: 'parameters.count', values: [1, 2] } }, true],
    ['in: value not listed', { in: { field: 'parameters.method', values: ['email', 'totp'] } }, false],
    ['flag on', { flag: 'on' }, true],
    ['flag off', { flag: 'off' }, false],
    ['flag unknown counts as off', { flag: 'unknown' }, false],
    ['negated flag off', { flag: '!off' }, true],
    ['negated flag on', { flag: '!on' }, false],
    ['all keys hold', { challenge: 'SMS_MFA', exists: 'redirect_to', flag: 'on' }, true],
    ['one key fails', { challenge: 'SMS_MFA', exists: 'redirect_to', flag: 'off' }, false],
  ])('%s', (_name, condition, expected) => {
    expect(conditionHolds(condition, response, flags)).toBe(expected);
  });
});

describe('resolveNextStep', () => {
  const start = registry.get('start');

  it.each<[string, StepResponse, Flags, string]>([
    ['a rule on exists wins, even with a challenge', { redirect_to: '/x', challenge: 'SMS_MFA' }, {}, 'leave'],
    ['a rule on challenge + flag applies when the flag is on', { challenge: 'SMS_MFA' }, { 'disable-sms-mfa': true }, 'pick'],
    ['without the flag the challenge picks its own step', { challenge: 'SMS_MFA' }, {}, 'sms'],
    ['a rule on equals', { parameters: { method: 'email' } }, {}, 'mail'],
    ['a rule on in', { parameters: { count: 3 } }, {}, 'pick'],
    ['fallback: the step claiming the challenge', { challenge: 'SELECT_MFA_TYPE' }, {}, 'pick'],
    ['an unknown challenge goes to the error step', { challenge: 'NOT_A_KIND' }, {}, 'error'],
    ['an answer nothing handles goes to the error step', {}, {}, 'error'],
  ])('%s', (_name, response, flags, expected) => {
    expect(resolveNextStep(start, response, deps(flags)).id).toBe(expected);
  });

  it('takes a rule without `when` as a catch-all', () => {
    expect(resolveNextStep(registry.get('catchall'), { challenge: 'SMS_MFA' }, deps()).id).toBe('mail');
  });

  it('takes the first matching rule, in file order', () => {
    const response = { redirect_to: '/x', parameters: { method: 'email' } };
    expect(resolveNextStep(start, response, deps()).id).toBe('leave');
  });
});

describe('buildRegistry', () => {
  it('refuses a challenge claimed by two steps', () => {
    const flows: FlowDefinition[] = [
      { id: 'a', steps: { one: { route: 'one', title: 'One', titleKeys: [], challenges: ['SMS_MFA'] } } },
      { id: 'b', steps: { two: { route: 'two', title: 'Two', titleKeys: [], challenges: ['SMS_MFA'] } } },
    ];
    expect(() => buildRegistry(flows)).toThrow(/SMS_MFA/);
  });

  it('refuses a step id defined twice', () => {
    const flows: FlowDefinition[] = [
      { id: 'a', steps: { one: { route: 'one', title: 'One', titleKeys: [] } } },
      { id: 'b', steps: { one: { route: 'uno', title: 'Uno', titleKeys: [] } } },
    ];
    expect(() => buildRegistry(flows)).toThrow(/one/);
  });

  it('names the missing step when a rule points nowhere', () => {
    expect(() => registry.get('nowhere')).toThrow(/nowhere/);
  });
});
