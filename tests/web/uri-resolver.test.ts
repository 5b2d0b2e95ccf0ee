// @vitest-environment node
/**
 * The fast-uri stand-in bundled for the browser agrees with fast-uri on the $ref resolutions
 * rjsf asks of it.
 */
import fastUri from 'fast-uri';
import { describe, expect, it } from 'vitest';
import { equal, resolve } from '../../src/ui/uri-resolver.ts';

describe('uri-resolver stand-in', () => {
  it.each([
    ['https://sso.local/schemas/forms/login.schema.json', '#/definitions/email'],
    ['https://sso.local/schemas/forms/login.schema.json', 'common.schema.json#/definitions/x'],
    ['https://sso.local/schemas/forms/login.schema.json', '../shared/a.json'],
    ['https://sso.local/schemas/forms/login.schema.json', 'https://other.example/s.json'],
    ['https://sso.local/a/b.json#frag', '#/x'],
  ])('resolve(%s, %s) matches fast-uri', (base, ref) => {
    expect(resolve(base, ref)).toBe(fastUri.resolve(base, ref));
  });

  it.each([
    ['https://sso.local/a.json', 'https://sso.local/a.json', true],
    ['HTTPS://SSO.local/a.json', 'https://sso.local/a.json', true],
    ['https://sso.local:443/a.json', 'https://sso.local/a.json', true],
    ['https://sso.local/a.json#', 'https://sso.local/a.json', true],
    ['https://sso.local/a.json', 'https://sso.local/b.json', false],
    ['#/definitions/a', '#/definitions/a', true],
  ])('equal(%s, %s) is %s, as fast-uri says', (a, b, expected) => {
    expect(equal(a, b)).toBe(expected);
    expect(fastUri.equal(a, b)).toBe(expected);
  });
});
