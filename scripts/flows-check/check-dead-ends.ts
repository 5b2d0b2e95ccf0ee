/**
 * Guards against dead ends: a form needs a call to submit to; a step with a call goes on by its
 * next rules or by the step claiming the answer's challenge; a message screen (no form, no call)
 * needs a link, a `navigate`, a `backToApp`, or to be declared `terminal`.
 */
import { stepEntries } from './step-index.ts';
import type { Problem, Project } from './types.ts';

/** Problems with steps a user could get stuck on. */
export function checkDeadEnds(project: Project): Problem[] {
  const entries = stepEntries(project.flows);
  // Without next rules a call's answer goes to the step claiming its challenge; that needs one besides the caller.
  const claimedElsewhere = (id: string): boolean =>
    entries.some((entry) => entry.id !== id && (entry.step.challenges ?? []).some((kind) => project.serverChallenges.includes(kind)));
  return entries.flatMap(({ file, path, id, step }): Problem[] => {
    if (step.terminal) return [];
    if (step.form && !step.call) return [{ file, path: `${path}.form`, message: `step "${id}" has a form but no call, so submitting it goes nowhere`, fix: 'add a call, or drop the form' }];
    if ((step.call || step.init) && !step.next?.length && !claimedElsewhere(id)) {
      return [{ file, path, message: `step "${id}" has no next rules and no other step claims a challenge the server sends`, fix: 'add next rules, or claim the challenges its call answers' }];
    }
    if (!step.form && !step.call && !step.init && !step.navigate && !step.backToApp && !step.links?.length) {
      return [{ file, path, message: `step "${id}" shows a message with no link, no navigate and is not terminal, so the user is stuck`, fix: 'add a link onward, or set "terminal": true if the flow ends here on purpose' }];
    }
    return [];
  });
}
