/**
 * Guards the reach of word sets: a flow's word set (flows/messages/<set>/) loads only with that flow, so a key a step
 * names must be in the main catalogue or in its own flow's set. A key kept in another flow's set shows as a raw key
 * whenever this step is opened first (a reload, a link).
 */
import { stepMessageKeys } from './message-references.ts';
import type { Problem, Project } from './types.ts';

/** Problems with keys a step names that only another flow's word set holds. */
export function checkWordSets(project: Project): Problem[] {
  const places = project.wordPlaces;
  if (places === undefined) return [];
  return project.flows.flatMap(({ file, flow }) =>
    Object.entries(flow.steps).flatMap(([id, step]) =>
      stepMessageKeys(step).flatMap(({ path, key }): Problem[] => {
        if (places.main.has(key) || (flow.words !== undefined && places.sets.get(flow.words)?.has(key))) return [];
        const holders = [...places.sets].filter(([, keys]) => keys.has(key)).map(([set]) => set);
        if (holders.length === 0) return [];
        return [{
          file,
          path: `steps.${id}.${path}`,
          message: `names message key "${key}", which only the word set ${holders.map((set) => `"${set}"`).join(', ')} holds, and ${flow.words === undefined ? 'this flow has none' : `this flow loads "${flow.words}"`}`,
          fix: `move it to flows/messages/<language>.json, since more than one flow names it`,
        }];
      }),
    ),
  );
}
