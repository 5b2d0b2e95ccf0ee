/** Guards transitions: every `next[].go`, `links[].go` (a variant's too) and guard step names a step some flow defines. */
import { useOneOf } from './problem.ts';
import { stepEntries, stepIds, stepLinks } from './step-index.ts';
import type { Problem, Project } from './types.ts';

/** Problems with `go` targets no flow defines. */
export function checkTargets(project: Project): Problem[] {
  const ids = stepIds(project.flows);
  return stepEntries(project.flows).flatMap(({ file, path, step }) => {
    const targets = [
      ...(step.next ?? []).map((rule, index) => ({ at: `${path}.next[${index}].go`, go: rule.go })),
      ...stepLinks(step).map(({ at, link }) => ({ at: `${path}.${at}.go`, go: link.go })),
      ...(step.guard?.from ?? []).map((from, index) => ({ at: `${path}.guard.from[${index}]`, go: from })),
      ...(step.guard ? [{ at: `${path}.guard.otherwise`, go: step.guard.otherwise }] : []),
    ];
    return targets
      .filter(({ go }) => !ids.has(go))
      .map(({ at, go }) => ({ file, path: at, message: `points at unknown step "${go}"`, fix: useOneOf(go, ids) }));
  });
}
