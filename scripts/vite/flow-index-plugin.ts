/**
 * `flows/<file>.json?step-index`: the routing facts of a flow file's steps (id, route, aliases, fixed route values,
 * challenges, errors, entry call), the query names its entry calls read and the flow's word set, without the rest of
 * each step. A step's title is not among them: a step titles the document when it shows, which is after its flow
 * file has loaded, so the index would carry it to the login screen for nothing.
 * The app ships these for every flow up front, so any route or challenge resolves at once,
 * and fetches a flow file itself only when one of its steps shows.
 */
import type { Plugin } from 'vite';

const INDEX_QUERY = /[\\/]flows[\\/][^\\/]+\.json\?step-index$/;

interface FlowFile {
  id: string;
  words?: string;
  steps: Record<string, { route: string; aliases?: string[]; routeValues?: Record<string, string>; challenges?: string[]; errors?: string[]; init?: { method: string; path: string; query?: string[] } }>;
}

/** The index of one flow file's text. */
export function flowIndexOf(text: string): unknown {
  const flow = JSON.parse(text) as FlowFile;
  const steps = Object.fromEntries(
    Object.entries(flow.steps).map(([id, step]) => [id, { route: step.route, aliases: step.aliases, routeValues: step.routeValues, challenges: step.challenges, errors: step.errors, init: step.init }]),
  );
  const entryQuery = [...new Set(Object.values(flow.steps).flatMap((step) => step.init?.query ?? []))];
  return { id: flow.id, words: flow.words, steps, entryQuery };
}

/** Serves `?step-index` imports of flow files. */
export function flowIndexPlugin(): Plugin {
  return {
    name: 'flow-step-index',
    enforce: 'pre',
    transform(code, id) {
      if (!INDEX_QUERY.test(id)) return null;
      return { code: `export default ${JSON.stringify(flowIndexOf(code))};`, map: null };
    },
  };
}
