/**
 * The step registry: every step of every flow file, by id and by challenge kind.
 * Flow files are picked up by a glob, so adding flows/<name>.json adds its steps with no code change.
 * The app ships each file's step index (route, title, challenges: scripts/vite/flow-index-plugin.ts)
 * up front, so any route or challenge resolves at once, and fetches the rest of a flow file only
 * when one of its steps shows; the first screen's flows come with the page.
 */
import { config } from '../config.ts';
import { loadChunk } from '../services/chunk-loader.ts';
import { loadWordSet } from '../services/word-sets.ts';
import type { FlowDefinition, Step, StepDefinition } from './flow-types.ts';

/** All steps, looked up by id or by the challenge kind they answer. */
export interface StepRegistry {
  readonly steps: ReadonlyMap<string, Step>;
  /** The step for a challenge kind, if any flow claims it. */
  forChallenge(challenge: string): Step | undefined;
  /** The step that shows an entry call failing with this API error code (a finished sign-in), if any flow claims it. */
  forError(code: string): Step | undefined;
  /** The step with this id; throws for an id no flow defines, since that is a broken flow file. */
  get(id: string): Step;
  /** The whole step, fetching its flow file first where the registry loads flows lazily. */
  load?(id: string): Promise<Step>;
}

/** Builds the registry, refusing step ids or challenge kinds claimed twice (the engine could not choose). */
export function buildRegistry(flows: readonly FlowDefinition[]): StepRegistry {
  const steps = new Map<string, Step>();
  const byChallenge = new Map<string, Step>();
  const byError = new Map<string, Step>();
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
      for (const code of definition.errors ?? []) {
        const owner = byError.get(code);
        if (owner) throw new Error(`Error ${code} is claimed by "${owner.id}" and "${id}"`);
        byError.set(code, step);
      }
    }
  }
  return {
    steps,
    forChallenge: (challenge) => byChallenge.get(challenge),
    forError: (code) => byError.get(code),
    get(id) {
      const step = steps.get(id);
      if (!step) throw new Error(`No flow defines step "${id}"`);
      return step;
    },
  };
}

/** The routing facts of one step, as the index keeps them. */
export type IndexedStep = Pick<Step, 'route' | 'aliases' | 'routeValues' | 'challenges' | 'errors' | 'init'>;

/** One flow file's index: its steps' routing facts and the query names its entry calls read. */
export interface FlowIndex {
  id: string;
  /** The flow's word set, if it has one (fetched alongside its file). */
  words?: string;
  steps: Record<string, IndexedStep>;
  entryQuery: readonly string[];
}

/** A registry that can fetch the rest of a step. */
export interface LazyStepRegistry extends StepRegistry {
  /**
   * The step with this id: the whole step once its flow file is loaded, until then its index entry
   * (enough to route to it). Render only what `load` or `loaded` answers.
   */
  get(id: string): Step;
  /** The whole step, if its flow file is loaded. */
  loaded(id: string): Step | undefined;
  /** Fetches the flow file of step `id` (once) and answers the whole step. */
  load(id: string): Promise<Step>;
  /** The query names every flow's entry calls read. */
  readonly entryQuery: readonly string[];
}

/** What the lazy registry is built from. */
export interface LazyRegistrySources {
  indexes: readonly FlowIndex[];
  /** Flow files already at hand (the first screen's). */
  loaded: readonly FlowDefinition[];
  /** Fetches a flow file by flow id. */
  loadFlow: (flowId: string) => Promise<FlowDefinition>;
}

/** Builds the registry; duplicate step ids or challenges across the indexes are refused as in buildRegistry. */
export function createLazyRegistry(sources: LazyRegistrySources): LazyStepRegistry {
  // An index entry stands in for its step until the flow file is loaded: enough to route to it, never to show it
  // (no title, words or form), which is why `get` says to render only what `load` or `loaded` answers.
  const index = buildRegistry(sources.indexes.map((flow) => ({ id: flow.id, steps: flow.steps as Record<string, StepDefinition> })));
  const steps = new Map(index.steps);
  const whole = new Map<string, Step>();
  const pending = new Map<string, Promise<void>>();

  const add = (flow: FlowDefinition) => {
    for (const step of buildRegistry([flow]).steps.values()) {
      whole.set(step.id, step);
      steps.set(step.id, step);
    }
  };
  for (const flow of sources.loaded) add(flow);

  const loadFlow = (flowId: string): Promise<void> => {
    const running = pending.get(flowId);
    if (running) return running;
    const loading = sources.loadFlow(flowId).then(add, (error: unknown) => {
      // A failed load may be retried, so forget it.
      pending.delete(flowId);
      throw error;
    });
    pending.set(flowId, loading);
    return loading;
  };

  return {
    steps,
    entryQuery: [...new Set(sources.indexes.flatMap((flow) => flow.entryQuery))],
    get(id) {
      return whole.get(id) ?? index.get(id);
    },
    forChallenge(challenge) {
      const step = index.forChallenge(challenge);
      return step && (whole.get(step.id) ?? step);
    },
    forError(code) {
      const step = index.forError(code);
      return step && (whole.get(step.id) ?? step);
    },
    loaded: (id) => whole.get(id),
    async load(id) {
      const ready = whole.get(id);
      if (ready) return ready;
      const step = index.get(id);
      await loadFlow(step.flowId);
      const loaded = whole.get(id);
      if (!loaded) throw new Error(`Flow "${step.flowId}" does not define step "${id}"`);
      return loaded;
    },
  };
}

const indexes = import.meta.glob<FlowIndex>('../../flows/*.json', { eager: true, query: '?step-index', import: 'default' });
// The first screen (login) and the error pages (which must show even when a chunk cannot load) come with the page.
const firstScreenFlows = import.meta.glob<FlowDefinition>(['../../flows/login.json', '../../flows/errors.json'], { eager: true, import: 'default' });
const laterFlows = import.meta.glob<FlowDefinition>(['../../flows/*.json', '!../../flows/login.json', '!../../flows/errors.json'], { import: 'default' });
const fileOfFlow = new Map(Object.entries(indexes).map(([file, index]) => [index.id, file]));
const wordsOfFlow = new Map(Object.values(indexes).map((index) => [index.id, index.words]));

/** The steps of every flow file shipped with the app. */
export const stepRegistry: LazyStepRegistry = createLazyRegistry({
  indexes: Object.values(indexes),
  loaded: Object.values(firstScreenFlows),
  loadFlow(flowId) {
    const load = laterFlows[fileOfFlow.get(flowId) ?? ''];
    if (!load) return Promise.reject(new Error(`No flow file defines flow "${flowId}"`));
    // A flow's own words arrive with it, fetched side by side, before any of its steps shows.
    const words = wordsOfFlow.get(flowId);
    return Promise.all([loadChunk(load, config.chunkLoadTimeoutMs), words ? loadWordSet(words) : undefined]).then(([flow]) => flow);
  },
});
