// @vitest-environment node
/**
 * What a flow keeps of a submit: only fields a later step of the same flow asks for, never an
 * encrypted one.
 */
import { describe, expect, it } from 'vitest';
import type { Step } from '../../src/engine/flow-types.ts';
import { stepRegistry } from '../../src/engine/step-registry.ts';
import { requestedSubmittedFields, valuesToRemember } from '../../src/engine/submitted-values.ts';
import { loadEveryFlow } from './support/every-flow.ts';

const steps: Step[] = [
  { id: 'ask', flowId: 'f', route: 'ask', title: 'Ask', titleKeys: [], call: { method: 'POST', path: 'x', encrypt: ['secret'] } },
  { id: 'use', flowId: 'f', route: 'use', title: 'Use', titleKeys: [], form: { schema: 's.schema.json', submit: 'a.b', prefill: { email: [{ query: 'u' }, { submitted: 'email' }] } } },
  { id: 'link', flowId: 'f', route: 'link', title: 'Link', titleKeys: [], links: [{ label: 'a.b', go: 'ask', query: { n: { submitted: 'secret' } } }] },
  { id: 'other', flowId: 'g', route: 'other', title: 'Other', titleKeys: [], form: { schema: 's.schema.json', submit: 'a.b', prefill: { code: { submitted: 'code' } } } },
];

describe('requestedSubmittedFields', () => {
  it('collects the submitted sources of prefills and link queries of one flow', () => {
    expect([...requestedSubmittedFields(steps, 'f')].sort()).toEqual(['email', 'secret']);
    expect([...requestedSubmittedFields(steps, 'g')]).toEqual(['code']);
  });
});

// The app fetches flow files as their steps show; this test reads whole steps of the shipped flows.
await loadEveryFlow();

describe('valuesToRemember', () => {
  it('keeps requested fields only, and never an encrypted one even when asked for', () => {
    const ask = steps[0] as Step;
    expect(valuesToRemember(ask, { email: 'a@b.co', code: '123456', secret: 'pw', other: 'x' }, steps)).toEqual({ email: 'a@b.co' });
  });

  it('keeps the email of forgot-password and nothing of change-password, in the shipped flows', () => {
    const all = [...stepRegistry.steps.values()];
    expect(valuesToRemember(stepRegistry.get('forgot-password'), { email: 'a@b.co' }, all)).toEqual({ email: 'a@b.co' });
    expect(valuesToRemember(stepRegistry.get('change-password'), { email: 'a@b.co', code: '123456', password: 'New-Passw0rd!' }, all)).toEqual({
      email: 'a@b.co',
    });
    expect(valuesToRemember(stepRegistry.get('login'), { email: 'a@b.co', password: 'pw' }, all)).toEqual({});
  });
});
