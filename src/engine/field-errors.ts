/** Server errors that concern one field of a step's form (`error_params.field`). UI-free. */
import { FIELD_PARAM } from '../../contract/error-codes.ts';
import type { StepForm } from './flow-types.ts';

/**
 * The field of `form` a server error names, when the form shows it (every shown field has a label; a hidden one
 * has none or is hidden by `hide`): its message then shows on that field. Undefined: the message shows above the form.
 */
export function erroredField(form: StepForm | undefined, errorParams: Readonly<Record<string, string>> | undefined, hidden: readonly string[]): string | undefined {
  const field = errorParams?.[FIELD_PARAM];
  if (!form || field === undefined || hidden.includes(field)) return undefined;
  return Object.hasOwn(form.labels ?? {}, field) ? field : undefined;
}
