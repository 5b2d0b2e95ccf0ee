import { describe, expect, it } from 'vitest';
import { formatMessage, placeholderNames } from '../../contract/message-format.ts';

const WAIT = 'Try again in {minutes, plural, one {# minute} other {# minutes}}, {name}.';

describe('catalogue texts', () => {
  it.each([
    ['1', 'en', 'Try again in 1 minute, Ada.'],
    ['3', 'en', 'Try again in 3 minutes, Ada.'],
    ['0', 'en', 'Try again in 0 minutes, Ada.'],
  ])('say %s minute(s) in the plural form the language uses (%s)', (minutes, language, text) => {
    expect(formatMessage(WAIT, { minutes, name: 'Ada' }, language)).toBe(text);
  });

  it('follow German plural rules for a German text', () => {
    const german = 'In {minutes, plural, one {# Minute} other {# Minuten}}.';
    expect(formatMessage(german, { minutes: 1 }, 'de')).toBe('In 1 Minute.');
    expect(formatMessage(german, { minutes: 15 }, 'de')).toBe('In 15 Minuten.');
  });

  it('keep a placeholder without a value as written, so the gap shows', () => {
    expect(formatMessage(WAIT, {}, 'en')).toBe(WAIT);
  });

  it('name their plain and plural placeholders alike, for the catalogue checks', () => {
    expect(placeholderNames(WAIT)).toEqual(['minutes', 'name']);
  });
});
