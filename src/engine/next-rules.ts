/**
 * The flow engine: given a step and the server's answer, pick the next step.
 * Pure and UI-free; it knows conditions, never challenge names or step ids.
 */
import type { Condition, Step, StepResponse } from './flow-types.ts';
import type { StepRegistry } from './step-registry.ts';
import type { Flags } from '../services/feature-flags/active-flags.ts';
import { readPath } from './read-path.ts';


/** What the engine needs besides the step and the response. */
export interface EngineDeps {
  readonly registry: StepRegistry;
  readonly flags: Flags;
  /** The step an unknown challenge or an unmatched answer lands on. */
  readonly errorStep: string;
}

/** Whether every key of `condition` holds for `response` under `flags`. */
export function conditionHolds(condition: Condition, response: StepResponse, flags: Flags): boolean {
  if (condition.challenge !== undefined && response.challenge !== condition.challenge) return false;
  if (condition.exists !== undefined && readPath(response, condition.exists) == null) return false;
  if (condition.equals && readPath(response, condition.equals.field) !== condition.equals.value) return false;
  if (condition.in) {
    const value = readPath(response, condition.in.field);
    if (!condition.in.values.some((candidate) => candidate === value)) return false;
  }
  if (condition.flag !== undefined) {
    const negated = condition.flag.startsWith('!');
    const on = flags[negated ? condition.flag.slice(1) : condition.flag] === true;
    if (on === negated) return false;
  }
  return true;
}

/**
 * The step to show after `step` received `response`: the first matching `next` rule, else the
 * step claiming the response's challenge, else the error step (an answer nobody handles is a failure).
 */
export function resolveNextStep(step: Step, response: StepResponse, deps: EngineDeps): Step {
  for (const rule of step.next ?? []) {
    if (!rule.when || conditionHolds(rule.when, response, deps.flags)) return deps.registry.get(rule.go);
  }
  if (typeof response.challenge === 'string') {
    return deps.registry.forChallenge(response.challenge) ?? deps.registry.get(deps.errorStep);
  }
  return deps.registry.get(deps.errorStep);
}
