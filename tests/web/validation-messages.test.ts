// @vitest-environment node
/**
 * Validation wording: ajv errors become the catalogue's exact messages through a form's
 * field -> keyword -> key table.
 */
import type { RJSFValidationError } from '@rjsf/utils';
import { describe, expect, it } from 'vitest';
import { t } from '../../src/services/messages.ts';
import { createErrorTransformer } from '../../src/engine/validation-messages.ts';

const messages = {
  email: { required: 'validation.email.required', format: 'validation.email.invalid' },
  password: { required: 'validation.password.required', minLength: 'validation.password.required' },
};
const transform = createErrorTransformer(messages);
const error = (property: string, name: string, message = 'ajv says no'): RJSFValidationError => ({
  property,
  name,
  message,
  stack: `${property} ${message}`,
});

describe('createErrorTransformer', () => {
  it.each([
    ['email', 'required', "Please enter your email address e.g, 'name@example.com'"],
    ['.email', 'format', "Please enter valid email address. e.g 'name@example.com'"],
    ['password', 'required', 'Please enter your password'],
    ['.password', 'minLength', 'Please enter your password'],
  ])('maps %s / %s to the spec wording', (property, keyword, expected) => {
    const [mapped] = transform([error(property, keyword)]);
    expect(mapped?.message).toBe(expected);
    expect(mapped?.stack).toBe(expected);
  });

  it('keeps ajv wording for keywords the form does not map', () => {
    expect(transform([error('.email', 'maxLength', 'must NOT have more than 254 characters')])[0]?.message).toBe(
      'must NOT have more than 254 characters',
    );
  });

  it('shows a message once per field even when two keywords map to it', () => {
    expect(transform([error('password', 'required'), error('.password', 'minLength')])).toHaveLength(1);
  });
});

describe('t', () => {
  it('fills {name} placeholders and leaves unknown ones visible', () => {
    expect(t('app.signingInTo', { client: 'Portal' })).toBe('Signing in to Portal');
    expect(t('app.signingInTo')).toBe('Signing in to {client}');
  });

  it('renders a missing key as the key itself', () => {
    expect(t('no.such.key')).toBe('no.such.key');
  });
});
