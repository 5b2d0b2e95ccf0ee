/** The API's error bodies: codes and statuses from the contract, English words from the catalogue users read. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, type ErrorCode } from '../../contract/error-codes.ts';
import { ApiError } from '../../server/errors.ts';

const english = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'flows', 'messages', 'en.json'), 'utf8')) as Record<string, string>;

describe('an API error', () => {
  it.each(Object.entries(ERROR_CODES) as Array<[ErrorCode, { status: number }]>)('%s answers its status with the English catalogue text', (code, { status }) => {
    const error = new ApiError(code);
    expect(error.status).toBe(status);
    expect(error.toBody()).toEqual({ error_code: code, error_message: english[`apiError.${code}`] });
  });

  it('names the catalogue key of a precise problem in error_params, beside its English words', () => {
    const body = new ApiError('request.invalid', { key: 'validation.name.required', message: 'Please enter your name' }).toBody();
    expect(body).toEqual({ error_code: 'request.invalid', error_message: 'Please enter your name', error_params: { reason: 'validation.name.required' } });
  });

  it('sends words without a catalogue key (a schema problem for API clients) without error_params', () => {
    expect(new ApiError('request.invalid', 'Only response_type=code is supported.').toBody()).toEqual({
      error_code: 'request.invalid',
      error_message: 'Only response_type=code is supported.',
    });
  });
});
