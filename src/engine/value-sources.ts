/**
 * Value sources: where a flow's `prefill` and link `query` entries take a value from — the page
 * query, the answer's parameters, what the user submitted earlier in the flow, or a form field.
 */
import type { ValueSource, ValueSources } from './flow-types.ts';
import { readPath } from '../../contract/read-path.ts';

/** Everything a source can read from. */
export interface ValueInputs {
  query: URLSearchParams;
  /** Parameters of the answer that led to the step. */
  parameters?: Readonly<Record<string, unknown>>;
  /** Values submitted on earlier steps of the same flow. */
  submitted?: Readonly<Record<string, unknown>>;
  /** The step's form values as currently typed. */
  values?: Readonly<Record<string, unknown>>;
}

/** A non-empty string (numbers as text), or undefined for anything else. */
function usable(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function readSource(source: ValueSource, inputs: ValueInputs): string | undefined {
  if (source.query !== undefined) return usable(inputs.query.get(source.query));
  if (source.parameter !== undefined) return usable(readPath(inputs.parameters, source.parameter));
  if (source.submitted !== undefined) return usable(readPath(inputs.submitted, source.submitted));
  if (source.field !== undefined) return usable(readPath(inputs.values, source.field));
  return undefined;
}

/** The sources as a list, whether the flow wrote one or several. */
export function sourceList(sources: ValueSources): readonly ValueSource[] {
  return Array.isArray(sources) ? sources : [sources as ValueSource];
}

/** The first value the sources yield, in order; undefined when none has one. */
export function resolveValue(sources: ValueSources, inputs: ValueInputs): string | undefined {
  for (const source of sourceList(sources)) {
    const value = readSource(source, inputs);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** name -> value for every entry of `map` whose sources yield one. */
export function resolveValues(map: Readonly<Record<string, ValueSources>> | undefined, inputs: ValueInputs): Record<string, string> {
  const resolved: Record<string, string> = {};
  for (const [name, sources] of Object.entries(map ?? {})) {
    const value = resolveValue(sources, inputs);
    if (value !== undefined) resolved[name] = value;
  }
  return resolved;
}
