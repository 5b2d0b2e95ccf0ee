/**
 * A walk taken from the compiled flow graph and the steps' example inputs, for every test that walks the flows (the
 * jsdom walks of tests/web, the browser walks of e2e/): from a step, each step its `next` rules lead to that has a
 * form and example inputs, in order. A step added as JSON is walked with no edit to any test.
 */
import { firstMatchingRule } from '../../contract/conditions.ts';
import type { FlowGraph, GraphStep, NextRule } from '../../contract/flow-graph.ts';

/** One step of a walk: the step, and the values its form submits. */
export interface WalkedStep {
  id: string;
  values: Readonly<Record<string, unknown>>;
}

/**
 * The steps a walk from `from` submits when every call answers `answer`: `from` and each step its `next` rules lead to
 * that has a form and example inputs, in order; the walk stops at the first step that declares none (`stopsAt`).
 */
export function walkExamples(graph: FlowGraph, from: string, answer: object): { steps: WalkedStep[]; stopsAt: string } {
  const steps: WalkedStep[] = [];
  for (let at: string | undefined = from; at !== undefined; ) {
    const step: GraphStep | undefined = graph.steps[at];
    if (!step?.examples || !step.submit || steps.some((walked) => walked.id === at)) return { steps, stopsAt: at };
    steps.push({ id: at, values: step.examples.valid });
    const rule: NextRule | undefined = firstMatchingRule(step.next, answer, {});
    at = rule?.go;
  }
  throw new Error(`the walk from ${from} leads nowhere`);
}
