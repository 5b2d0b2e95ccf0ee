/** Guards the steps the app names in src/config.ts (entry, error, not-found): a flow must define each. */
import { useOneOf } from './problem.ts';
import { stepIds } from './step-index.ts';
import type { Problem, Project } from './types.ts';

/** Problems with config step ids no flow defines. */
export function checkAppSteps(project: Project): Problem[] {
  const ids = stepIds(project.flows);
  return project.appSteps
    .filter(({ step }) => !ids.has(step))
    .map(({ name, step }) => ({ file: 'src/config.ts', path: name, message: `names unknown step "${step}"`, fix: `define it in a flow, or ${useOneOf(step, ids)}` }));
}
