/**
 * Web walks taken from the flows: the compiled graph (contract/flow-graph.ts) says which step follows which, each
 * step's example inputs (its `examples.valid`) say what to type, and the catalogues say what the labels, buttons and
 * headlines read. A step added as JSON is walked with no edit here.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import { compileFlowGraph, type FlowGraph } from '../../../contract/flow-graph.ts';
import type { FlowDefinition, StepDefinition } from '../../../src/engine/flow-types.ts';
import { walkExamples, type WalkedStep } from '../../support/example-walk.ts';

const flowFiles = import.meta.glob<FlowDefinition>('../../../flows/*.json', { eager: true, import: 'default' });
const englishWords = import.meta.glob<Record<string, string>>(['../../../flows/messages/en.json', '../../../flows/messages/*/en.json'], { eager: true, import: 'default' });

/** Every flow file, as the app ships them. */
export const flows: readonly FlowDefinition[] = Object.values(flowFiles);
/** The flows' compiled graph. */
export const graph: FlowGraph = compileFlowGraph(flows);
const english: Record<string, string> = Object.assign({}, ...Object.values(englishWords));

/** The English words of message key `key`. */
export function words(key: string): string {
  const text = english[key];
  if (text === undefined) throw new Error(`no English words for ${key}`);
  return text;
}

/** The step `id` as its flow file writes it. */
export function stepDefinition(id: string): StepDefinition {
  for (const flow of flows) if (flow.steps[id]) return flow.steps[id];
  throw new Error(`no flow defines step ${id}`);
}

/** The steps a walk from `from` submits when every call answers `answer` (tests/support/example-walk.ts), in the app's flows. */
export function walkFrom(from: string, answer: object): { steps: WalkedStep[]; stopsAt: string } {
  return walkExamples(graph, from, answer);
}

/** Types `values` into the step's form by each field's label, ticks a true checkbox, and presses the step's submit. */
export async function fillAndSubmit(id: string, values: Readonly<Record<string, unknown>>): Promise<void> {
  const form = stepDefinition(id).form;
  if (!form?.submit) throw new Error(`step ${id} has no form to submit`);
  for (const [field, value] of Object.entries(values)) {
    const labelKey = form.labels?.[field];
    if (!labelKey) throw new Error(`step ${id}: field ${field} has no label`);
    const input = await screen.findByLabelText<HTMLInputElement>(words(labelKey));
    if (value === true) await userEvent.click(input);
    else {
      await userEvent.clear(input);
      await userEvent.type(input, String(value));
    }
  }
  await userEvent.click(screen.getByRole('button', { name: words(form.submit) }));
}

/** Waits for step `id` to show: its headline (or the label of its first field). */
export async function expectStep(id: string): Promise<void> {
  const step = stepDefinition(id);
  if (step.headline) await screen.findByRole('heading', { name: words(step.headline) });
  else {
    const first = Object.values(step.form?.labels ?? {})[0];
    if (!first) throw new Error(`step ${id} has neither a headline nor a labelled field to find it by`);
    await screen.findByLabelText(words(first));
  }
  expect(window.location.pathname.replace(/^\/auth\//, '').split('/')[0]).toBe(step.route.split('/')[0]);
}
