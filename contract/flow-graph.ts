/**
 * The flow graph: which step may follow which, read from the flows' own words (`next`, links, `guard`), and where a
 * sign-in in progress may call next. The web app follows these edges; the server admits a step's call only along them,
 * so no client can skip a step by calling a later one (a sign-up cannot post its code without the job details first).
 */
import type * as FlowFile from './flow-file.ts';

/** The parts of a call the graph reads. */
export type GraphCall = Pick<FlowFile.Call, 'method' | 'path' | 'encrypt' | 'transaction'>;

/** A step's example inputs: form values it accepts (the tests' walks submit them), and values it refuses with a message. */
export type StepExamples = FlowFile.Examples;

/** A `next` rule: where the answer leads when `when` holds. */
export type NextRule = FlowFile.Rule;

/** The parts of a step the graph reads. */
export type GraphStepSource = Pick<FlowFile.Step, 'challenges' | 'admits' | 'guard' | 'init' | 'call' | 'actions' | 'panelCalls' | 'variants' | 'links' | 'next' | 'examples'>;

/** The parts of a flow file the graph reads. */
export type GraphFlowSource = Pick<FlowFile.FlowDefinition, 'id' | 'steps'>;

/** One step of the graph. */
export interface GraphStep {
  id: string;
  flow: string;
  /** The challenges whose answer shows this step (the server's plan is at it). */
  claims: readonly string[];
  /** The further challenges at which the server admits its calls (it is reached by a link or a `next` rule there). */
  admits: readonly string[];
  /** The steps its call's answer may lead to: its `next` targets, and the steps that name it in `guard.from`. */
  leadsTo: readonly string[];
  /** The steps the person may go to from it without a call: its links (a variant's too) and its guard's `otherwise`. */
  linksTo: readonly string[];
  /** Its `next` rules, in order. */
  next: readonly NextRule[];
  /** A guarded step: the steps it may be entered from (any, when its guard names none), and where it sends the user otherwise. */
  guard?: { from?: readonly string[]; otherwise: string };
  /** The call its form submits. */
  submit?: GraphCall;
  /** Its example inputs. */
  examples?: StepExamples;
  /** Every call the step makes: its init, submit, actions, panel's and variants'. */
  calls: readonly GraphCall[];
  /** Whether the step makes a call the server admits within a sign-in (so the server sees the person reach it). */
  journeyCalls: readonly GraphCall[];
  /** Whether the step begins with a call open to anyone (the authorization request that starts or resumes a sign-in). */
  opensJourney: boolean;
}

/** Every step of every flow, by id. */
export interface FlowGraph {
  steps: Readonly<Record<string, GraphStep>>;
}

/** Where one sign-in stands: the challenge the server asked, and the steps whose calls it admitted, the current one last. */
export interface Journey {
  challenge: string;
  steps: readonly string[];
}

const callsOf = (step: GraphStepSource): GraphCall[] =>
  [step.init, step.call, ...(step.actions ?? []).map((action) => action.call), ...Object.values(step.panelCalls ?? {}), ...(step.variants ?? []).map((variant) => variant.call)].filter(
    (call): call is GraphCall => call !== undefined,
  );

/** Builds the graph of `flows`. */
export function compileFlowGraph(flows: readonly GraphFlowSource[]): FlowGraph {
  const entries = flows.flatMap((flow) => Object.entries(flow.steps).map(([id, step]) => ({ id, flow: flow.id, step })));
  const guardedFrom = new Map<string, string[]>();
  for (const { id, step } of entries) {
    for (const from of step.guard?.from ?? []) guardedFrom.set(from, [...(guardedFrom.get(from) ?? []), id]);
  }
  const steps = Object.fromEntries(
    entries.map(({ id, flow, step }): [string, GraphStep] => {
      const links = [
        ...(step.links ?? []).map((link) => link.go),
        ...(step.variants ?? []).flatMap((variant) => (variant.links ?? []).map((link) => link.go)),
        ...(step.guard ? [step.guard.otherwise] : []),
      ];
      return [
        id,
        {
          id,
          flow,
          claims: step.challenges ?? [],
          admits: step.admits ?? [],
          leadsTo: [...new Set([...(step.next ?? []).map((rule) => rule.go), ...(guardedFrom.get(id) ?? [])])],
          linksTo: [...new Set(links)],
          next: step.next ?? [],
          ...(step.guard ? { guard: step.guard } : {}),
          ...(step.call ? { submit: step.call } : {}),
          ...(step.examples ? { examples: step.examples } : {}),
          calls: callsOf(step),
          journeyCalls: callsOf(step).filter((call) => call.transaction !== 'none'),
          opensJourney: step.init !== undefined && step.init.transaction === 'none',
        },
      ];
    }),
  );
  return { steps };
}

/**
 * The steps `from` leads to before the server sees another call: by its answer or its links, then on by the links of
 * each step reached (following a link needs no call), and by the answers of steps whose calls the server never sees.
 */
export function reachableFrom(graph: FlowGraph, from: string): ReadonlySet<string> {
  const reached = new Set<string>();
  const queue = [...(graph.steps[from]?.leadsTo ?? []), ...(graph.steps[from]?.linksTo ?? [])];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (reached.has(next)) continue;
    reached.add(next);
    const step = graph.steps[next];
    if (!step) continue;
    queue.push(...step.linksTo);
    if (step.journeyCalls.length === 0) queue.push(...step.leadsTo);
  }
  return reached;
}

/** Whether the person at step `from`, while the server asks `challenge`, may call step `to` next. */
export function leadsTo(graph: FlowGraph, from: string, challenge: string, to: string): boolean {
  if (from === to || graph.steps[to]?.claims.includes(challenge)) return true;
  if (reachableFrom(graph, from).has(to)) return true;
  // The server's own answer named the step claiming the challenge: where that step leads is open too.
  return Object.values(graph.steps).some((step) => step.claims.includes(challenge) && reachableFrom(graph, step.id).has(to));
}

/**
 * Whether a sign-in at `journey` may call step `to`: a step it reached before (the person went Back), or one its
 * current step leads to. A sign-in no step call has reached yet stands where it was opened: at a step that opens one.
 */
export function journeyAdmits(graph: FlowGraph, journey: Journey, to: string): boolean {
  if (journey.steps.includes(to)) return true;
  const current = journey.steps.at(-1);
  if (current !== undefined) return leadsTo(graph, current, journey.challenge, to);
  return Object.values(graph.steps).some((step) => step.opensJourney && leadsTo(graph, step.id, journey.challenge, to));
}
