/**
 * The words for a failed call in the current language. The API answers `{ error_code, error_message, error_params? }`;
 * the catalogues word each code of contract/error-codes.ts as `apiError.<code>`, so the text is picked by code in
 * the user's language, never by comparing the server's English.
 */
import { errorMessageKey, isErrorCode, REASON_PARAM } from '../../contract/error-codes.ts';
import { hasMessage, t, validationExamples } from './messages.ts';

/**
 * The catalogue's text for `code` (or for the precise reason the server named in `params`, a catalogue key) with
 * `params` filled in. Without a code of the contract (a network failure, another server's answer) it is `message`:
 * what the answer says, in spec section 8's order, ending with the generic message.
 */
export function apiErrorText(message: string, code: string | undefined, params: Readonly<Record<string, string>> = {}): string {
  if (code === undefined || !isErrorCode(code)) return message;
  const reason = params[REASON_PARAM];
  const key = reason !== undefined && hasMessage(reason) ? reason : errorMessageKey(code);
  return t(key, { ...validationExamples(), ...params });
}
