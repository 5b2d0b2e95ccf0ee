/**
 * Choices: a list the server sent in the answer's parameters, offered to a field's widget as { value, label }.
 */
import type { ChoiceSource } from './flow-types.ts';
import { readPath } from './read-path.ts';

/** One choice a widget offers. */
export interface Choice {
  value: string;
  label: string;
}

/** The items of the list `source` names that have a text value and label; an absent list gives none. */
export function readChoices(source: ChoiceSource, parameters: Readonly<Record<string, unknown>> | undefined): Choice[] {
  const list = readPath(parameters, source.parameter);
  if (!Array.isArray(list)) return [];
  return list.flatMap((item: unknown) => {
    const value = readPath(item, source.value);
    const label = readPath(item, source.label);
    return typeof value === 'string' && typeof label === 'string' ? [{ value, label }] : [];
  });
}

/** field -> its choices, for every field the form gives a choice source. */
export function resolveChoices(
  sources: Readonly<Record<string, ChoiceSource>> | undefined,
  parameters: Readonly<Record<string, unknown>> | undefined,
): Record<string, Choice[]> {
  const resolved: Record<string, Choice[]> = {};
  for (const [field, source] of Object.entries(sources ?? {})) resolved[field] = readChoices(source, parameters);
  return resolved;
}
