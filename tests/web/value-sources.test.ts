// @vitest-environment node
/**
 * Value sources (prefill and link query entries) and the links built from them: each source kind,
 * fallbacks in order, and hrefs that keep the carried query.
 */
import { describe, expect, it } from 'vitest';
import type { Step, ValueSources } from '../../src/engine/flow-types.ts';
import { stepLinkHref } from '../../src/engine/step-links.ts';
import { resolveValue, resolveValues, type ValueInputs } from '../../src/engine/value-sources.ts';

const inputs: ValueInputs = {
  query: new URLSearchParams('username=q%40x.co&empty='),
  parameters: { email: 'p@x.co', nested: { code: 42 }, blank: '' },
  submitted: { email: 's@x.co' },
  values: { email: 'f@x.co' },
};

describe('resolveValue', () => {
  it.each<[string, ValueSources, string | undefined]>([
    ['a query value', { query: 'username' }, 'q@x.co'],
    ['an empty query value counts as none', { query: 'empty' }, undefined],
    ['a response parameter', { parameter: 'email' }, 'p@x.co'],
    ['a nested parameter, numbers as text', { parameter: 'nested.code' }, '42'],
    ['a submitted value', { submitted: 'email' }, 's@x.co'],
    ['a form field', { field: 'email' }, 'f@x.co'],
    ['a missing value', { parameter: 'nope' }, undefined],
    ['the first source with a value wins', [{ parameter: 'blank' }, { query: 'missing' }, { query: 'username' }, { submitted: 'email' }], 'q@x.co'],
    ['a list with no value', [{ parameter: 'blank' }, { field: 'other' }], undefined],
  ])('%s', (_name, sources, expected) => {
    expect(resolveValue(sources, inputs)).toBe(expected);
  });

  it('reads nothing from inputs that are absent', () => {
    expect(resolveValue({ parameter: 'email' }, { query: new URLSearchParams() })).toBeUndefined();
  });
});

describe('resolveValues', () => {
  it('names only the entries that have a value', () => {
    expect(resolveValues({ email: { parameter: 'email' }, code: { query: 'code' } }, inputs)).toEqual({ email: 'p@x.co' });
    expect(resolveValues(undefined, inputs)).toEqual({});
  });
});

describe('stepLinkHref', () => {
  const target = (route: string): Step => ({ id: 'target', flowId: 'f', route, title: 'T', titleKeys: [] });

  it('keeps the carried query and sets the values the link names', () => {
    const link = { label: 'a.b', go: 'target', query: { username: { field: 'email' } } };
    expect(stepLinkHref(link, target('forgot'), { ...inputs, carried: '?client_id=c&username=old' })).toBe('/forgot?client_id=c&username=f%40x.co');
  });

  it('leaves the carried value when the source has none', () => {
    const link = { label: 'a.b', go: 'target', query: { username: { field: 'nope' } } };
    expect(stepLinkHref(link, target('forgot'), { ...inputs, carried: '?username=old' })).toBe('/forgot?username=old');
  });

  it('leaves behind the carried names the link is without', () => {
    const link = { label: 'a.b', go: 'target', without: ['invitation'] };
    expect(stepLinkHref(link, target('login'), { ...inputs, carried: '?client_id=c&invitation=dead' })).toBe('/login?client_id=c');
  });

  it('fills route segments from the route, then the answer parameters', () => {
    const link = { label: 'a.b', go: 'target' };
    const step = target('change/:delivery_destination');
    const base = { query: new URLSearchParams(), carried: '', parameters: { delivery_destination: 'p' } };
    expect(stepLinkHref(link, step, base)).toBe('/change/p');
    expect(stepLinkHref(link, step, { ...base, routeParams: { delivery_destination: 'r@x' } })).toBe('/change/r%40x');
  });

  it('gives no href when a required segment has no value', () => {
    const inputs = { query: new URLSearchParams(), carried: '' };
    expect(stepLinkHref({ label: 'a.b', go: 'target' }, target('change/:delivery_destination'), inputs)).toBeUndefined();
  });
});
