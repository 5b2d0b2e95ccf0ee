/**
 * Guards the words of every step: each message key a flow names (headline, body, submit, labels,
 * validation messages, link labels) exists in every catalogue, so no language shows a raw key
 * (English here; the other catalogues follow English key for key, see check-catalogues.ts).
 */
import { missingKey } from './catalogue-lookup.ts';
import { stepMessageKeys } from './message-references.ts';
import { stepEntries } from './step-index.ts';
import type { Problem, Project } from './types.ts';

/** Problems with flow message keys some catalogue lacks. */
export function checkFlowMessageKeys(project: Project): Problem[] {
  return stepEntries(project.flows).flatMap(({ file, path, step }) =>
    stepMessageKeys(step).flatMap(({ path: at, key }) => {
      const missing = missingKey(key, project.catalogues);
      return missing ? [{ file, path: `${path}.${at}`, ...missing }] : [];
    }),
  );
}
