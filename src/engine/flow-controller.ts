/**
 * The flow controller: runs a step's calls and turns every outcome into the step to show next.
 * Failures are steps too: a failed submit stays on its step with the message, a failed entry
 * goes to the error step.
 */
import { applyVariants } from '../../contract/step-variants.ts';
import { toApiError, type ApiClient } from '../services/api-client.ts';
import { resolveNextStep, type EngineDeps } from './next-rules.ts';
import type { Step, StepAction, StepCall, StepResponse } from './flow-types.ts';
import { t } from '../services/messages.ts';
import { runStepCall } from './step-call.ts';

/** What the shown step knows: the answer that led to it, or the failure to report. */
export interface StepContext {
  stepId: string;
  response?: StepResponse;
  error?: string;
  /** The API's error code of `error`, when the server sent one (the view words it per language). */
  errorCode?: string;
  /** The `error_params` that came with `errorCode`. */
  errorParams?: Readonly<Record<string, string>>;
  /** The step whose answer led here, for steps that may only be entered from certain others (`guard`). */
  from?: string;
}

/** How many steps one entry may pass through (an entry call's answer or failure leading to another's). */
const MAX_ENTRY_HOPS = 3;

/** The step to show and its context. */
export interface Transition {
  step: Step;
  context: StepContext;
  /** The move replaces the current address in the browser's history (a step entered by its address that sends the user on), so Back does not land on it again. */
  replace?: boolean;
}

/** The controller's collaborators. */
export interface FlowControllerDeps extends EngineDeps {
  api: ApiClient;
  track: (event: string) => void;
}

/** Runs step calls and decides transitions. */
export interface FlowController {
  /** Runs the step's `init` call (the step was entered directly); undefined when it has none. */
  enter(step: Step, query: URLSearchParams): Promise<Transition | undefined>;
  /** Runs the step's `call` (its variant's, after the answer in `current`) with the submitted values. */
  submit(step: Step, values: Readonly<Record<string, unknown>>, query: URLSearchParams, current?: StepContext): Promise<Transition>;
  /** Makes one of the step's panel calls with `values`; its answer goes through the step's `next` rules like a submit's. */
  submitCall(step: Step, call: StepCall, values: Readonly<Record<string, unknown>>, query: URLSearchParams, current?: StepContext): Promise<Transition>;
  /** Runs one of the step's actions (no form); its answer goes through the step's `next` rules like a submit's. */
  act(step: Step, action: StepAction, query: URLSearchParams, current?: StepContext, values?: Readonly<Record<string, unknown>>): Promise<Transition>;
  /** The transition after `step` received `response`. */
  advance(step: Step, response: StepResponse): Transition;
}

/** Creates a flow controller over the given registry, flags and API client. */
export function createFlowController(deps: FlowControllerDeps): FlowController {
  const advance = (step: Step, response: StepResponse): Transition => {
    const next = resolveNextStep(step, response, deps);
    return { step: next, context: { stepId: next.id, response, from: step.id } };
  };
  const errorStep = (): Step => deps.registry.get(deps.errorStep);
  // A step of a flow file not loaded yet is only its index entry: fetch the rest before making its calls.
  const wholeStep = (id: string): Promise<Step> => (deps.registry.load ? deps.registry.load(id) : Promise.resolve(deps.registry.get(id)));

  /** Makes `call` from `step` and turns the answer (or the failure, which stays on the step) into the transition. */
  const run = async (
    step: Step,
    call: Step['call'],
    events: Step['events'],
    input: { values: Readonly<Record<string, unknown>>; query: URLSearchParams; current: StepContext | undefined },
  ): Promise<Transition> => {
    const { values, query, current } = input;
    if (!call) return { step, context: { stepId: step.id, response: current?.response, from: current?.from } };
    try {
      const transition = advance(step, await runStepCall({ call, query, values, parameters: current?.response?.parameters }, deps.api));
      if (events?.success) deps.track(events.success);
      return transition;
    } catch (error) {
      if (events?.error) deps.track(events.error);
      const { message, code, params } = toApiError(error);
      return { step, context: { stepId: step.id, response: current?.response, error: message, errorCode: code, errorParams: params, from: current?.from } };
    }
  };

  /**
   * Runs `step`'s entry call. A failure some step claims (a finished sign-in, a step the sign-in has moved past) is
   * that step's to show, entered at once if it makes a call of its own (finding where the sign-in is now). An answer
   * naming another step with an entry call (resuming after Back or a reload: it says where the sign-in is, not what
   * that step shows) enters that step too, so it shows its own answer (the method list its choices, a code screen
   * where the code went). `depth` stops steps that would send each other on for ever.
   */
  const enterStep = async (step: Step, query: URLSearchParams, depth: number): Promise<Transition | undefined> => {
    if (!step.init) return undefined;
    let transition: Transition;
    try {
      transition = { ...advance(step, await runStepCall({ call: step.init, query }, deps.api)), replace: true };
    } catch (error) {
      // Nothing on this step can work without its entry call, so show the failure instead.
      if (step.events?.initError) deps.track(step.events.initError);
      const { message, code, params } = toApiError(error);
      const claimed = code === undefined ? undefined : deps.registry.forError(code);
      if (claimed && claimed.id !== step.id && depth < MAX_ENTRY_HOPS) {
        if (claimed.init) return (await enterStep(await wholeStep(claimed.id), query, depth + 1)) ?? { step: claimed, context: { stepId: claimed.id }, replace: true };
        return { step: claimed, context: { stepId: claimed.id, from: step.id }, replace: true };
      }
      const failed = errorStep();
      // Without the server's own error, the step's wording beats a browser's "Failed to fetch".
      const text = code === undefined && step.initFailure ? t(step.initFailure) : message;
      return { step: failed, context: { stepId: failed.id, error: text, errorCode: code, errorParams: params, from: step.id }, replace: true };
    }
    const next = transition.step;
    if (next.id === step.id || !deps.registry.get(next.id).init || depth >= MAX_ENTRY_HOPS) return transition;
    return (await enterStep(await wholeStep(next.id), query, depth + 1)) ?? transition;
  };

  return {
    advance,
    enter(step, query) {
      return enterStep(step, query, 0);
    },
    async submit(step, values, query, current) {
      const shown = applyVariants(step, current?.response, deps.flags);
      return run(step, shown.call, shown.events, { values, query, current });
    },
    async submitCall(step, call, values, query, current) {
      return run(step, call, undefined, { values, query, current });
    },
    async act(step, action, query, current, values = {}) {
      return run(step, action.call, action.events, { values, query, current });
    },
  };
}
