/**
 * Validation wording: ajv errors mapped to catalogue messages through a form's `messages`
 * table (field -> ajv keyword -> message key), in the spec's exact words.
 */
import type { RJSFValidationError } from '@rjsf/utils';
import { t, validationExamples } from '../services/messages.ts';

/** field -> ajv keyword -> message key, as in a flow form's `messages`. */
export type FieldMessages = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** The form field an rjsf error belongs to, as a dot path ("email", "address.city"). */
function errorField(error: RJSFValidationError): string {
  return (error.property ?? '').replace(/^\./, '');
}

/**
 * An rjsf `transformErrors` that rewrites mapped errors to catalogue text and drops repeats,
 * so a field shows each message once. Unmapped errors keep ajv's wording.
 */
export function createErrorTransformer(messages: FieldMessages = {}): (errors: RJSFValidationError[]) => RJSFValidationError[] {
  const examples = validationExamples();
  return (errors) => {
    const seen = new Set<string>();
    const result: RJSFValidationError[] = [];
    for (const error of errors) {
      const field = errorField(error);
      const key = messages[field]?.[error.name ?? ''];
      const message = key ? t(key, examples) : (error.message ?? '');
      if (seen.has(`${field}\n${message}`)) continue;
      seen.add(`${field}\n${message}`);
      result.push(key ? { ...error, message, stack: message } : error);
    }
    return result;
  };
}
