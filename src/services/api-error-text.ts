/**
 * The words for a failed call in the current language. The API answers `{ error_code,
 * error_message }` in English; the catalogues hold each code's text as `apiError.<code>`.
 */
import { englishMessage, t } from './messages.ts';

/**
 * The catalogue's text for `code` when the server sent that code's standard English wording,
 * else the server's own message. The server words some codes more precisely for a step
 * (`request.invalid` names the field at fault); only it knows that text, so it is kept.
 */
export function apiErrorText(message: string, code: string | undefined): string {
  if (code === undefined) return message;
  const key = `apiError.${code}`;
  return englishMessage(key) === message ? t(key) : message;
}
