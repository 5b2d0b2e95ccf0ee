/** Every step of every flow, with the file and JSON path problems about it are reported at. */
import type { StepDefinition } from '../../src/engine/flow-types.ts';
import type { FlowFile, FormSchema, Project } from './types.ts';

/** A step, where it is written, and which flow it belongs to. */
export interface StepEntry {
  id: string;
  flowId: string;
  file: string;
  /** JSON path of the step in its file: `steps.<id>`. */
  path: string;
  step: StepDefinition;
}

/** The steps of `flows`, in file order. */
export function stepEntries(flows: readonly FlowFile[]): StepEntry[] {
  return flows.flatMap(({ file, flow }) =>
    Object.entries(flow.steps).map(([id, step]) => ({ id, flowId: flow.id, file, path: `steps.${id}`, step })),
  );
}

/** The ids of every step of `flows`. */
export function stepIds(flows: readonly FlowFile[]): Set<string> {
  return new Set(stepEntries(flows).map((entry) => entry.id));
}

/** The property names of a step's form schema; empty when it has no form or the schema is missing. */
export function formFields(step: StepDefinition, schemas: Project['formSchemas']): string[] {
  const schema: FormSchema | undefined = step.form ? schemas.get(step.form.schema) : undefined;
  return Object.keys(schema?.properties ?? {});
}

/** Whether a field is drawn as a hidden input (its value comes from the flow, so it needs no label). */
export function isHiddenField(step: StepDefinition, field: string): boolean {
  const ui = step.form?.ui?.[field];
  return typeof ui === 'object' && ui !== null && (ui as Record<string, unknown>)['ui:widget'] === 'hidden';
}

/**
 * Every form to check: each step's, and each variant's own form (with the call that submits it), at the JSON
 * path of the variant, so form problems in a variant are reported where they are written.
 */
export function formEntries(flows: readonly FlowFile[]): StepEntry[] {
  return stepEntries(flows).flatMap((entry) => [
    entry,
    ...(entry.step.variants ?? []).flatMap((variant, index) =>
      variant.form ? [{ ...entry, path: `${entry.path}.variants[${index}]`, step: { ...entry.step, form: variant.form, call: variant.call ?? entry.step.call } }] : [],
    ),
  ]);
}

/** The links of a step and of its variants, each with its JSON path relative to the step. */
export function stepLinks(step: StepDefinition): { at: string; link: NonNullable<StepDefinition['links']>[number] }[] {
  return [
    ...(step.links ?? []).map((link, index) => ({ at: `links[${index}]`, link })),
    ...(step.variants ?? []).flatMap((variant, v) => (variant.links ?? []).map((link, index) => ({ at: `variants[${v}].links[${index}]`, link }))),
  ];
}
