/**
 * Step variants: one route can serve several answers (setting a factor up and signing in with it), each with its own
 * title, words, form and call. Every variant whose `when` holds for the answer that led to the step applies, in
 * order, so a later one can change just the call of an earlier one (the same screens during sign-up). The web app
 * shows and submits the step as `applyVariants` gives it; the server admits the calls `variantsPossibleAt` allows.
 */
import { conditionHolds, type Answer, type Condition, type Flags } from './conditions.ts';

/** A variant: the keys it gives replace the step's own when `when` holds. */
export interface Variant {
  when: Condition;
}

/** A step with variants. */
export interface VariedStep<V extends Variant> {
  variants?: readonly V[];
}

/** The variants of `step` that hold for `answer` under `flags`, in order. */
export function matchingVariants<V extends Variant>(step: VariedStep<V>, answer: Answer | undefined, flags: Flags): V[] {
  if (!answer || !step.variants) return [];
  return step.variants.filter((candidate) => conditionHolds(candidate.when, answer, flags));
}

/** `step` with the keys of `variants` over its own, in order. */
export function mergeVariants<S extends VariedStep<V>, V extends Variant>(step: S, variants: readonly V[]): S {
  return variants.reduce<S>((shown, { when: _when, ...own }) => ({ ...shown, ...own }), step);
}

/** The step as shown after `answer`: the matching variants' keys over the step's own. */
export function applyVariants<S extends VariedStep<V>, V extends Variant>(step: S, answer: Answer | undefined, flags: Flags): S {
  return mergeVariants(step, matchingVariants(step, answer, flags));
}

/** Which variants apply, as a key; a change gives the screen a fresh form. */
export function variantKey<V extends Variant>(step: VariedStep<V>, answer: Answer | undefined, flags: Flags): string {
  return matchingVariants(step, answer, flags)
    .map((variant) => step.variants?.indexOf(variant))
    .join(',');
}

/**
 * The variants the browser may be showing while the transaction rests at `challenge`, for the server, which knows the
 * challenge but not the answer's other fields nor the browser's flags: those keys may hold. A `challenge` the step
 * never rests at (RESEND_OTP, the answer to an action) may be the answer the browser saw last, so it may hold too.
 */
export function variantsPossibleAt<V extends Variant>(step: VariedStep<V>, challenge: string, restingChallenges: readonly string[]): V[] {
  return (step.variants ?? []).filter(({ when }) => when.challenge === undefined || !restingChallenges.includes(when.challenge) || when.challenge === challenge);
}
