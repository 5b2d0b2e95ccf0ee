/**
 * What a flow remembers of a successful submit: only the fields a step of the same flow reads back
 * through a `submitted` source (the recovery code step's hidden email, say), and never a field the
 * step encrypts, so no password is ever kept.
 */
import type { Step, ValueSources } from './flow-types.ts';
import { sourceList } from './value-sources.ts';

/** Submitted values by flow id, then field. */
export type SubmittedValues = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

function submittedNames(map: Readonly<Record<string, ValueSources>> | undefined): string[] {
  return Object.values(map ?? {}).flatMap((sources) => sourceList(sources).flatMap((source) => (source.submitted ? [source.submitted] : [])));
}

/** The fields some step of `flowId` reads through `submitted` (prefills, words and link queries). */
export function requestedSubmittedFields(steps: Iterable<Step>, flowId: string): Set<string> {
  const fields = new Set<string>();
  for (const step of steps) {
    if (step.flowId !== flowId) continue;
    for (const name of submittedNames(step.form?.prefill)) fields.add(name);
    for (const name of submittedNames(step.placeholders)) fields.add(name);
    for (const link of step.links ?? []) for (const name of submittedNames(link.query)) fields.add(name);
  }
  return fields;
}

/** The part of `values`, submitted on `step`, that its flow asks to keep. */
export function valuesToRemember(step: Step, values: Readonly<Record<string, unknown>>, steps: Iterable<Step>): Record<string, unknown> {
  const requested = requestedSubmittedFields(steps, step.flowId);
  const encrypted = new Set(step.call?.encrypt ?? []);
  const kept: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(values)) {
    if (requested.has(field) && !encrypted.has(field) && value !== undefined) kept[field] = value;
  }
  return kept;
}
