// @vitest-environment node
/**
 * The password rules of schemas/password-policy.json, the field checks that use them, and
 * one-time-code clean-up.
 */
import { describe, expect, it } from 'vitest';
import { fieldChecks, runFieldChecks } from '../../src/engine/field-checks.ts';
import { t } from '../../src/services/messages.ts';
import { normalizeCode } from '../../src/ui/widgets/one-time-code.ts';
import { checkPassword, firstUnmetRule, strongPasswordMessage } from '../../src/engine/password-policy.ts';

describe('checkPassword', () => {
  it('lists the five rules in the spec’s words and order', () => {
    expect(checkPassword('').map((rule) => t(rule.message))).toEqual([
      'at least 8 characters',
      'at least one lowercase letter',
      'at least one UPPERCASE letter',
      'at least one number',
      'at least one special character (e.g. ~ ! @ # $ %)',
    ]);
    expect(t(strongPasswordMessage)).toBe('Your password is strong');
  });

  it.each<[string, string | undefined]>([
    ['', 'at least 8 characters'],
    ['Aa1!', 'at least 8 characters'],
    ['ABCDEFG1!', 'at least one lowercase letter'],
    ['abcdefg1!', 'at least one UPPERCASE letter'],
    ['Abcdefgh!', 'at least one number'],
    ['Abcdefgh1', 'at least one special character (e.g. ~ ! @ # $ %)'],
    ['Abcdefg 1', undefined],
    ['New-Passw0rd!', undefined],
    ['Ünïcødé-Pässwört-1', undefined],
  ])('%j: first unmet rule is %j', (password, expected) => {
    const key = firstUnmetRule(password);
    expect(key === undefined ? undefined : t(key)).toBe(expected);
  });

  it('counts characters, not UTF-16 units, for the length rule', () => {
    expect(checkPassword('Aa1!🔑🔑🔑')[0]?.met).toBe(false);
  });
});

describe('runFieldChecks', () => {
  it('reports the first problem of each checked, non-empty field', () => {
    expect(runFieldChecks({ password: 'password-policy' }, { password: 'abcdefg1!' })).toEqual({ password: 'password.rule.uppercase' });
    expect(runFieldChecks({ password: 'password-policy' }, { password: 'New-Passw0rd!' })).toEqual({});
  });

  it("leaves empty fields to the schema's required message", () => {
    expect(runFieldChecks({ password: 'password-policy' }, { password: '' })).toEqual({});
    expect(runFieldChecks({ password: 'password-policy' }, {})).toEqual({});
  });

  it('refuses a check name it does not know', () => {
    expect(() => runFieldChecks({ password: 'nope' }, { password: 'x' })).toThrow(/nope/);
    expect(Object.keys(fieldChecks)).toContain('password-policy');
  });
});

describe('normalizeCode', () => {
  it.each<[string, number | undefined, string]>([
    ['123 456', 6, '123456'],
    [' 123-456 ', 6, '123456'],
    ['Your code is 123456', 6, '123456'],
    ['1234567', 6, '123456'],
    ['12a3', undefined, '123'],
    ['', 6, ''],
  ])('%j (length %s) -> %j', (input, length, expected) => {
    expect(normalizeCode(input, length)).toBe(expected);
  });
});
