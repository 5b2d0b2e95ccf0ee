/**
 * Guards where prefills, placeholders, action values and link queries take values from: a `field` of the step's own form (and
 * only in links), a field a step of the same flow `submitted`, an answer `parameter` only on a
 * step an answer leads to, and a `query` value the app carries from step to step.
 */
import type { ValueSource, ValueSources } from '../../src/engine/flow-types.ts';
import { useOneOf } from './problem.ts';
import { formFields, stepEntries, type StepEntry } from './step-index.ts';
import type { Problem, Project } from './types.ts';

interface Located {
  at: string;
  source: ValueSource;
  inLink: boolean;
}

/** Every source of a step with its path, whether written as one source or a list. */
function sourcesOf(entry: StepEntry): Located[] {
  const spread = (base: string, sources: ValueSources, inLink: boolean): Located[] =>
    Array.isArray(sources) ? sources.map((source, index) => ({ at: `${base}[${index}]`, source, inLink })) : [{ at: base, source: sources as ValueSource, inLink }];
  return [
    ...Object.entries(entry.step.form?.prefill ?? {}).flatMap(([field, sources]) => spread(`${entry.path}.form.prefill.${field}`, sources, false)),
    ...Object.entries(entry.step.placeholders ?? {}).flatMap(([name, sources]) => spread(`${entry.path}.placeholders.${name}`, sources, false)),
    ...(entry.step.actions ?? []).flatMap((action, index) =>
      Object.entries(action.values ?? {}).flatMap(([name, sources]) => spread(`${entry.path}.actions[${index}].values.${name}`, sources, false)),
    ),
    ...(entry.step.links ?? []).flatMap((link, index) =>
      Object.entries(link.query ?? {}).flatMap(([name, sources]) => spread(`${entry.path}.links[${index}].query.${name}`, sources, true)),
    ),
  ];
}

/** Problems with value sources that can never yield a value. */
export function checkValueSources(project: Project): Problem[] {
  const entries = stepEntries(project.flows);
  const answered = new Set(entries.flatMap(({ id, step }) => [...(step.challenges?.length ? [id] : []), ...(step.next ?? []).map((rule) => rule.go)]));
  const carried = new Set([...project.carriedQuery, ...entries.flatMap(({ step }) => step.init?.query ?? [])]);
  const submittedIn = (flowId: string): string[] =>
    entries.filter((entry) => entry.flowId === flowId && entry.step.call).flatMap((entry) => formFields(entry.step, project.formSchemas));

  return entries.flatMap((entry) =>
    sourcesOf(entry).flatMap(({ at, source, inLink }): Problem[] => {
      const { file } = entry;
      if (source.field !== undefined) {
        if (!inLink) return [{ file, path: `${at}.field`, message: 'reads a field of the form it prefills', fix: 'use query, parameter or submitted' }];
        const fields = formFields(entry.step, project.formSchemas);
        return fields.includes(source.field) ? [] : [{ file, path: `${at}.field`, message: `reads field "${source.field}", which this step's form does not have`, fix: useOneOf(source.field, fields) }];
      }
      if (source.submitted !== undefined) {
        const submitted = submittedIn(entry.flowId);
        return submitted.includes(source.submitted.split('.')[0] ?? '')
          ? []
          : [{ file, path: `${at}.submitted`, message: `reads submitted "${source.submitted}", which no step of flow "${entry.flowId}" submits`, fix: useOneOf(source.submitted, submitted) }];
      }
      if (source.parameter !== undefined && !answered.has(entry.id)) {
        return [{ file, path: `${at}.parameter`, message: `reads answer parameter "${source.parameter}", but no answer leads to step "${entry.id}"`, fix: 'claim the challenge whose answer carries it, or read query or submitted' }];
      }
      if (source.query !== undefined && !entry.step.init && !carried.has(source.query)) {
        return [{ file, path: `${at}.query`, message: `reads query "${source.query}", which the app does not carry from step to step`, fix: `add it to carriedQuery in src/config.ts, or ${useOneOf(source.query, carried)}` }];
      }
      return [];
    }),
  );
}
