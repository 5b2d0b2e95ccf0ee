/**
 * The step registry: every step of every flow file, by id and by challenge kind.
 * Flow files are picked up by a glob, so adding flows/<name>.json adds its steps with no code change.
 * A flow marked `"loading": "on-demand"` arrives as stubs (route, title, challenges, guard, init; vite.config.ts
 * makes them); `complete` fetches its full steps the first time one of them shows.
 */
import type { FlowDefinition, Step } from './flow-types.ts';
import { addBuiltInMessages } from './messages.ts';
import onDemandFlows from 'virtual:on-demand-flows';

/** All steps, looked up by id or by the challenge kind they answer. */
export interface StepRegistry {
  readonly steps: ReadonlyMap<string, Step>;
  /** The step for a challenge kind, if any flow claims it. */
  forChallenge(challenge: string): Step | undefined;
  /** The step with this id; throws for an id no flow defines, since that is a broken flow file. */
  get(id: string): Step;
  /** The full step of a stub (its flow's chunk fetched once); a full step as it is. */
  complete(step: Step): Promise<Step>;
}

/** Loads a flow's full definition by its id. */
export type FullFlowLoader = (flowId: string) => Promise<FlowDefinition>;

/** Builds the registry, refusing step ids or challenge kinds claimed twice (the engine could not choose). */
export function buildRegistry(flows: readonly FlowDefinition[], loadFull?: FullFlowLoader): StepRegistry {
  const steps = new Map<string, Step>();
  const byChallenge = new Map<string, Step>();
  const add = (flow: FlowDefinition, replace: boolean) => {
    for (const [id, definition] of Object.entries(flow.steps)) {
      if (steps.has(id) && !replace) throw new Error(`Step "${id}" is defined twice (flow "${flow.id}")`);
      const step: Step = { ...definition, id, flowId: flow.id };
      steps.set(id, step);
      for (const challenge of definition.challenges ?? []) {
        const owner = byChallenge.get(challenge);
        if (owner && owner.id !== id) throw new Error(`Challenge ${challenge} is claimed by "${owner.id}" and "${id}"`);
        byChallenge.set(challenge, step);
      }
    }
  };
  for (const flow of flows) add(flow, false);
  const loading = new Map<string, Promise<void>>();
  const get = (id: string): Step => {
    const step = steps.get(id);
    if (!step) throw new Error(`No flow defines step "${id}"`);
    return step;
  };
  return {
    steps,
    forChallenge: (challenge) => byChallenge.get(challenge),
    get,
    async complete(step) {
      if (!step.stub) return step;
      if (!loadFull) throw new Error(`Step "${step.id}" is a stub and no loader fetches its flow`);
      let load = loading.get(step.flowId);
      if (!load) {
        load = loadFull(step.flowId).then((flow) => add(flow, true));
        // A failed fetch may be retried on the next showing.
        load.catch(() => loading.delete(step.flowId));
        loading.set(step.flowId, load);
      }
      await load;
      return get(step.id);
    },
  };
}

const flowModules = import.meta.glob<FlowDefinition>('../../flows/*.json', { eager: true, import: 'default' });

/** The steps of every flow file shipped with the app. */
export const stepRegistry: StepRegistry = buildRegistry(Object.values(flowModules), async (flowId) => {
  const load = onDemandFlows[flowId];
  if (!load) throw new Error(`No flow file flows/${flowId}.json`);
  const flow = await load();
  // Its English texts came with it (the first download leaves out the texts only on-demand flows name).
  addBuiltInMessages(flow.messages ?? {});
  return flow;
});
