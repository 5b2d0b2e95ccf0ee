/**
 * The step registry: every step of every flow file, by id and by challenge kind.
 * Flow files are picked up by a glob, so adding flows/<name>.json adds its steps with no code change.
 */
import type { FlowDefinition, Step } from './flow-types.ts';

/** All steps, looked up by id or by the challenge kind they answer. */
export interface StepRegistry {
  readonly steps: ReadonlyMap<string, Step>;
  /** The step for a challenge kind, if any flow claims it. */
  forChallenge(challenge: string): Step | undefined;
  /** The step with this id; throws for an id no flow defines, since that is a broken flow file. */
  get(id: string): Step;
}

/** Builds the registry, refusing step ids or challenge kinds claimed twice (the engine could not choose). */
export function buildRegistry(flows: readonly FlowDefinition[]): StepRegistry {
  const steps = new Map<string, Step>();
  const byChallenge = new Map<string, Step>();
  for (const flow of flows) {
    for (const [id, definition] of Object.entries(flow.steps)) {
      if (steps.has(id)) throw new Error(`Step "${id}" is defined twice (flow "${flow.id}")`);
      const step: Step = { ...definition, id, flowId: flow.id };
      steps.set(id, step);
      for (const challenge of definition.challenges ?? []) {
        const owner = byChallenge.get(challenge);
        if (owner) throw new Error(`Challenge ${challenge} is claimed by "${owner.id}" and "${id}"`);
        byChallenge.set(challenge, step);
      }
    }
  }
  return {
    steps,
    forChallenge: (challenge) => byChallenge.get(challenge),
    get(id) {
      const step = steps.get(id);
      if (!step) throw new Error(`No flow defines step "${id}"`);
      return step;
    },
  };
}

const flowModules = import.meta.glob<FlowDefinition>('../../flows/*.json', { eager: true, import: 'default' });

/** The steps of every flow file shipped with the app. */
export const stepRegistry: StepRegistry = buildRegistry(Object.values(flowModules));
