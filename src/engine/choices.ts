/**
 * Choices: a list the server sent in the answer's parameters, offered to a field's widget as { value, label }.
 */
import type { ChoiceSource } from './flow-types.ts';
import { t, type MessageParams } from '../services/messages.ts';
import { readPath } from '../../contract/read-path.ts';

/** One choice a widget offers. */
export interface Choice {
  value: string;
  label: string;
}

/** The item's text and number fields, as placeholders of its label message. */
function itemParams(item: unknown): MessageParams {
  const params: Record<string, string | number> = {};
  if (typeof item !== 'object' || item === null) return params;
  for (const [name, value] of Object.entries(item)) if (typeof value === 'string' || typeof value === 'number') params[name] = value;
  return params;
}

/**
 * An item's label: its label field when it has one (the name a person gave it), else the message `labels` names for
 * its value (filled from the item). An item with neither is not offered.
 */
function labelOf(source: ChoiceSource, item: unknown, value: string): string | undefined {
  const label = source.label === undefined ? undefined : readPath(item, source.label);
  if (typeof label === 'string' && label !== '') return label;
  const key = source.labels?.[value];
  return key === undefined ? undefined : t(key, itemParams(item));
}

/** The items of the list `source` names that have a text value and label; an absent list gives none. */
export function readChoices(source: ChoiceSource, parameters: Readonly<Record<string, unknown>> | undefined): Choice[] {
  const list = readPath(parameters, source.parameter);
  if (!Array.isArray(list)) return [];
  return list.flatMap((item: unknown) => {
    const value = readPath(item, source.value);
    const label = typeof value === 'string' ? labelOf(source, item, value) : undefined;
    return typeof value === 'string' && label !== undefined ? [{ value, label }] : [];
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
