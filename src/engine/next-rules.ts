/**
 * The flow engine: given a step and the server's answer, pick the next step.
 * Pure and UI-free; it knows conditions, never challenge names or step ids.
 */
import { firstMatchingRule, type Flags } from '../../contract/conditions.ts';
import type { Step, StepResponse } from './flow-types.ts';
import type { StepRegistry } from './step-registry.ts';

/** What the engine needs besides the step and the response. */
export interface EngineDeps {
  readonly registry: StepRegistry;
  readonly flags: Flags;
  /** The step an unknown challenge or an unmatched answer lands on. */
  readonly errorStep: string;
}

/**
 * The step to show after `step` received `response`: the first matching `next` rule, else the
 * step claiming the response's challenge, else the error step (an answer nobody handles is a failure).
 */
export function resolveNextStep(step: Step, response: StepResponse, deps: EngineDeps): Step {
  const rule = firstMatchingRule(step.next, response, deps.flags);
  if (rule) return deps.registry.get(rule.go);
  if (typeof response.challenge === 'string') {
    return deps.registry.forChallenge(response.challenge) ?? deps.registry.get(deps.errorStep);
  }
  return deps.registry.get(deps.errorStep);
}
