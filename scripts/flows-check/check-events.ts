/**
 * Guards the analytics events: every event a flow names (a step's `events`, a `backToApp.event`) is in
 * the event catalogue, flows/shell/events.json, so what reaches the tag manager is a known, documented list.
 */
import { useOneOf } from './problem.ts';
import { stepEntries } from './step-index.ts';
import type { Problem, Project } from './types.ts';

/** The catalogue's file, for problem lines and fixes. */
export const EVENT_CATALOGUE_FILE = 'flows/shell/events.json';

/** Problems with events no catalogue entry documents. */
export function checkEvents(project: Project): Problem[] {
  const known = new Set(project.eventCatalogue.keys());
  return stepEntries(project.flows).flatMap(({ id, flowId, file, path, step }) => {
    const named: Array<[string, string | undefined]> = [
      ...Object.entries(step.events ?? {}).map(([kind, event]): [string, string | undefined] => [`events.${kind}`, event]),
      ['backToApp.event', step.backToApp?.event],
    ];
    return named.flatMap(([at, event]) =>
      event === undefined || known.has(event)
        ? []
        : [
            {
              file,
              path: `${path}.${at}`,
              message: `names event "${event}", which the event catalogue does not list`,
              fix: `add "${event}": "<when it is sent>" under "flows"."${flowId}" in ${EVENT_CATALOGUE_FILE} (step ${id}), or ${useOneOf(event, known)}`,
            },
          ],
    );
  });
}
