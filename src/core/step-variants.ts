/**
 * Step variants: one route can serve several answers (setting a factor up and signing in with it), each with its own
 * title, words, form and call. The first variant whose `when` holds for the answer that led to the step applies.
 */
import { conditionHolds, type Flags } from './engine.ts';
import type { Step, StepResponse } from './flow-types.ts';

/** The step as shown after `response`: the first matching variant's keys over the step's own. */
export function applyVariant(step: Step, response: StepResponse | undefined, flags: Flags): Step {
  if (!response || !step.variants) return step;
  const variant = step.variants.find((candidate) => conditionHolds(candidate.when, response, flags));
  if (!variant) return step;
  const { when: _when, ...own } = variant;
  return { ...step, ...own };
}

/** Which variant applies (its index), or -1 for the step itself; a change gives the screen a fresh form. */
export function variantIndex(step: Step, response: StepResponse | undefined, flags: Flags): number {
  if (!response || !step.variants) return -1;
  return step.variants.findIndex((candidate) => conditionHolds(candidate.when, response, flags));
}
