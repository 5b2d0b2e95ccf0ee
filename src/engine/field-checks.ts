/**
 * Named client-side field checks, picked by a flow form's `checks` (field -> check name). Each
 * returns the message key of the first problem, or undefined. The server enforces the same rules;
 * these only spare the user a round trip.
 */
import { firstUnmetRule } from './password-policy.ts';

/** A check over a field's non-empty text value. */
export type FieldCheck = (value: string) => string | undefined;

/** Check name -> check; the names match the `checks` enum in schemas/flow.schema.json. */
export const fieldChecks: Readonly<Record<string, FieldCheck>> = {
  'password-policy': firstUnmetRule,
};

/** field -> message key of the first problem, for every checked field with a non-empty value that fails. */
export function runFieldChecks(
  checks: Readonly<Record<string, string>> | undefined,
  values: Readonly<Record<string, unknown>>,
): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const [field, name] of Object.entries(checks ?? {})) {
    const check = fieldChecks[name];
    if (!check) throw new Error(`No field check named "${name}" (field ${field})`);
    const value = values[field];
    // An empty field is the schema's `required` to report, in its own words.
    if (typeof value !== 'string' || value === '') continue;
    const problem = check(value);
    if (problem) problems[field] = problem;
  }
  return problems;
}
