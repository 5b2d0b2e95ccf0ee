// @vitest-environment node
/**
 * The fast-equals stand-in bundled for the browser answers as rjsf's deepEquals does with the real library
 * (functions always equal, circular references followed), so forms re-render and keep state exactly as before.
 */
import { describe, expect, it } from 'vitest';
// The real library, by file: the bare name is aliased to the stand-in in this build.
import { createCustomEqual as realCreateCustomEqual } from '../../node_modules/fast-equals/dist/es/index.mjs';
import { createCustomEqual } from '../../src/ui/deep-equal.ts';

const rjsfDeepEquals = realCreateCustomEqual({
  circular: true,
  createCustomConfig: () => ({ areFunctionsEqual: (_a: unknown, b: unknown) => typeof b === 'function' }),
});
const standIn = createCustomEqual();

function circular(label: string): Record<string, unknown> {
  const node: Record<string, unknown> = { label };
  node.self = node;
  return node;
}

describe('deep-equal stand-in', () => {
  const onClick = () => undefined;
  it.each([
    ['equal schemas', { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] }, { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] }],
    ['a changed nested value', { properties: { email: { minLength: 1 } } }, { properties: { email: { minLength: 2 } } }],
    ['a missing key', { a: 1, b: undefined }, { a: 1, c: undefined }],
    ['an extra key', { a: 1 }, { a: 1, b: 2 }],
    ['arrays in another order', ['email', 'password'], ['password', 'email']],
    ['an array against an object with its indexes', ['x'], { 0: 'x' }],
    ['two different functions', { 'ui:widget': onClick }, { 'ui:widget': () => 1 }],
    ['a function against a value', { onClick }, { onClick: 'x' }],
    ['NaN against NaN', { n: Number.NaN }, { n: Number.NaN }],
    ['equal dates', new Date(5), new Date(5)],
    ['different dates', new Date(5), new Date(6)],
    ['null against an object', null, {}],
    ['0 against -0', 0, -0],
    ['equal circular structures', circular('a'), circular('a')],
    ['different circular structures', circular('a'), circular('b')],
    ['equal maps', new Map([['a', { x: 1 }]]), new Map([['a', { x: 1 }]])],
    ['different sets', new Set([1, 2]), new Set([1, 3])],
  ])('%s: same answer as rjsf with fast-equals', (_case, a, b) => {
    expect(standIn(a, b)).toBe(rjsfDeepEquals(a, b));
  });
});
