/**
 * Binds a step to the flow controller: runs its entry call when it is entered directly, submits
 * its form, runs its actions (with the toast an action names once it succeeded), follows `navigate`, and shows
 * whatever step the engine picks (src/state/chosen-step-atom.ts), giving it its address for Back and Reload.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useAtom, useSetAtom } from 'jotai';
import { useLocation, useSearch } from 'wouter';
import { config } from '../config.ts';
import type { StepContext, Transition } from '../engine/flow-controller.ts';
import type { Step, StepAction, StepCall } from '../engine/flow-types.ts';
import { stepRegistry } from '../engine/step-registry.ts';
import { readPath } from '../../contract/read-path.ts';
import { buildStepPath, carryQuery } from '../engine/routes.ts';
import { carriedQuery, flowController } from '../engine/runtime.ts';
import { t } from '../services/messages.ts';
import { safeNavigationUrl } from '../services/safe-url.ts';
import { showToast } from '../services/show-toast.ts';
import { valuesToRemember } from '../engine/submitted-values.ts';
import { stepContextAtom } from '../state/step-context-atom.ts';
import { chosenStepAtom } from '../state/chosen-step-atom.ts';
import { clearDraft } from '../state/form-drafts.ts';
import { submittedValuesAtom } from '../state/submitted-values-atom.ts';
import { leaveTo } from './browser-navigation.ts';
import { accountPageAddress } from '../engine/account-page.ts';
import { reachedFrom, rememberReached } from '../state/reached-steps.ts';
import { guardAdmits } from '../engine/flow-graph.ts';

/** What a step view needs from the flow. */
export interface StepFlow {
  /** This step's context, if the flow has one for it. */
  context: StepContext | undefined;
  query: URLSearchParams;
  /** The query carried to other steps, as "?a=b" or "". */
  carried: string;
  /** True while the step's entry call runs. */
  entering: boolean;
  /** True while a submit of this step is in flight. */
  submitting: boolean;
  submit: (values: Readonly<Record<string, unknown>>) => Promise<void>;
  /** Runs one of the step's actions (ask for a new code), sending `values` (its `values` sources, resolved). */
  act: (action: StepAction, values?: Readonly<Record<string, unknown>>) => Promise<void>;
  /** Lets step `stepId`, followed by a link, show with this step's answer (a link's `keepAnswer`). */
  handOver: (stepId: string) => void;
  /** Makes one of the step's panel calls with `values`, and moves on as its answer says. */
  submitCall: (call: StepCall, values: Readonly<Record<string, unknown>>) => Promise<void>;
}

/** The flow state and actions for `step`. */
export function useStepFlow(step: Step): StepFlow {
  const [context, setContext] = useAtom(stepContextAtom);
  const recordSubmitted = useSetAtom(submittedValuesAtom);
  const choose = useSetAtom(chosenStepAtom);
  const [, navigate] = useLocation();
  const search = useSearch();
  const query = useMemo(() => new URLSearchParams(search), [search]);
  const carried = carryQuery(search, carriedQuery);
  const own = context?.stepId === step.id ? context : undefined;
  const [entering, setEntering] = useState(() => own === undefined && step.init !== undefined);
  const [submitting, setSubmitting] = useState(false);
  const alive = useRef(true);
  const started = useRef<string | undefined>(undefined);
  const assigned = useRef<string | undefined>(undefined);

  const go = useCallback(
    (transition: Transition) => {
      if (!alive.current) return;
      setContext(transition.context);
      if (transition.step.id === step.id) return;
      const error = stepRegistry.get(config.errorStep);
      const path = buildStepPath(transition.step, transition.context.response?.parameters);
      // A step whose address cannot be written (a required segment without a value) could not be entered again: the error step instead.
      const shown = path === undefined ? error : transition.step;
      choose({ stepId: shown.id, route: shown.route });
      navigate(`${path ?? buildStepPath(error) ?? '/'}${carried}`, { replace: transition.replace === true });
    },
    [step.id, setContext, choose, navigate, carried],
  );

  // A step entered by URL, not by the engine, starts with its init call, unless no client app is named: then the
  // address is the account page's. The ref keeps React's development double-effect from sending it twice.
  useEffect(() => {
    alive.current = true;
    const key = `${step.id}?${search}`;
    const accountPage = own ? undefined : accountPageAddress(step, query);
    if (accountPage) leaveTo(accountPage);
    else if (!own && step.init && started.current !== key) {
      started.current = key;
      setEntering(true);
      void flowController.enter(step, query).then((transition) => {
        if (alive.current) setEntering(false);
        if (transition) go(transition);
      });
    }
    return () => {
      alive.current = false;
    };
  }, [step, search, query, own, go]);

  // A guarded step reached other than from one of its `from` steps (a typed address, a reload) sends the user on,
  // unless this tab reached it properly before and it is a form (which needs no answer to show): then a reload,
  // Back or Forward finds it again.
  useEffect(() => {
    const guard = step.guard;
    if (!guard) return;
    const admitted = (from: string | undefined) => guardAdmits(step.id, from);
    const reenterable = step.form !== undefined;
    if (admitted(own?.from)) {
      if (reenterable) rememberReached(step.id, own?.from);
      return;
    }
    if (reenterable && admitted(reachedFrom(step.id))) return;
    const otherwise = stepRegistry.get(guard.otherwise);
    // A context of its own would keep the other step from making its entry call.
    go({ step: otherwise, context: otherwise.init ? { stepId: step.id } : { stepId: otherwise.id, from: step.id }, replace: true });
  }, [step, own, go]);

  // A `navigate` step hands the browser to the URL in its response; without one (Back, a reload) it is a dead end,
  // unless its guard already sends the user somewhere honest.
  useEffect(() => {
    if (!step.navigate) return;
    const url = safeNavigationUrl(readPath(own?.response, step.navigate), window.location.href);
    if (url && assigned.current !== url) {
      assigned.current = url;
      leaveTo(url);
    } else if (!url && !step.guard) go({ step: stepRegistry.get(config.errorStep), context: { stepId: config.errorStep, from: step.id }, replace: true });
  }, [step.navigate, step.guard, own, go]);

  const submit = useCallback(
    async (values: Readonly<Record<string, unknown>>) => {
      // Clear the previous failure so a repeated message is announced again.
      setContext({ stepId: step.id, response: own?.response, from: own?.from });
      setSubmitting(true);
      const transition = await flowController.submit(step, values, query, own);
      if (alive.current) setSubmitting(false);
      if (!transition.context.error) {
        // Before moving on, so the next step can already read what it asks for.
        const kept = valuesToRemember(step, values, stepRegistry.steps.values());
        if (Object.keys(kept).length > 0) recordSubmitted({ flowId: step.flowId, values: kept });
        clearDraft(step);
      }
      go(transition);
    },
    [step, own, query, go, setContext, recordSubmitted],
  );

  const act = useCallback(
    async (action: StepAction, values: Readonly<Record<string, unknown>> = {}) => {
      setContext({ stepId: step.id, response: own?.response, from: own?.from });
      setSubmitting(true);
      const transition = await flowController.act(step, action, query, own, values);
      if (alive.current) setSubmitting(false);
      if (action.toast && !transition.context.error) showToast({ type: 'success', title: t(action.toast) });
      go(transition);
    },
    [step, own, query, go, setContext],
  );

  const handOver = useCallback((stepId: string) => setContext({ stepId, response: own?.response, from: step.id }), [step.id, own, setContext]);

  const submitCall = useCallback(
    async (call: StepCall, values: Readonly<Record<string, unknown>>) => {
      setSubmitting(true);
      const transition = await flowController.submitCall(step, call, values, query, own);
      if (alive.current) setSubmitting(false);
      go(transition);
    },
    [step, own, query, go],
  );

  return { context: own, query, carried, entering, submitting, submit, act, handOver, submitCall };
}
