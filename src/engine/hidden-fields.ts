/** A form's `hide` rules: the fields the answer that led to the step keeps from the user. UI-free. */
import { conditionHolds, type Answer, type Condition, type Flags } from '../../contract/conditions.ts';

/** The fields whose `hide` condition holds for `answer` (a shared-device hint hides "Don't ask for a code on this device"). */
export function hiddenFields(hide: Readonly<Record<string, Condition>> | undefined, answer: Answer | undefined, flags: Flags): string[] {
  if (!hide) return [];
  return Object.entries(hide).flatMap(([field, condition]) => (conditionHolds(condition, answer ?? {}, flags) ? [field] : []));
}

/** The form's values without the hidden fields: a field the user never saw is never sent. */
export function withoutHidden<Values extends Record<string, unknown>>(values: Values, hidden: readonly string[]): Values {
  if (hidden.length === 0) return values;
  return Object.fromEntries(Object.entries(values).filter(([field]) => !hidden.includes(field))) as Values;
}
