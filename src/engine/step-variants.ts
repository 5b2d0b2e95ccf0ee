/**
 * Step variants: one route can serve several answers (setting a factor up and signing in with it), each with its own
 * title, words, form and call. Every variant whose `when` holds for the answer that led to the step applies, in
 * order, so a later one can change just the call of an earlier one (the same screens during sign-up).
 */
import type { Flags } from '../services/feature-flags/active-flags.ts';
import { conditionHolds } from './next-rules.ts';
import type { Step, StepResponse, StepVariant } from './flow-types.ts';

/** The variants of `step` that hold for `response`, in order. */
function matching(step: Step, response: StepResponse | undefined, flags: Flags): StepVariant[] {
  if (!response || !step.variants) return [];
  return step.variants.filter((candidate) => conditionHolds(candidate.when, response, flags));
}

/** The step as shown after `response`: the matching variants' keys over the step's own. */
export function applyVariant(step: Step, response: StepResponse | undefined, flags: Flags): Step {
  return matching(step, response, flags).reduce<Step>((shown, { when: _when, ...own }) => ({ ...shown, ...own }), step);
}

/** Which variants apply, as a key; a change gives the screen a fresh form. */
export function variantKey(step: Step, response: StepResponse | undefined, flags: Flags): string {
  return matching(step, response, flags)
    .map((variant) => step.variants?.indexOf(variant))
    .join(',');
}
