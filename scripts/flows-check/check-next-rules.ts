/**
 * Guards next rules that can never apply: a rule after an unconditional one (the first match
 * wins), and a `flag` condition naming a flag the app does not have (it would read as off forever).
 */
import { useOneOf } from './problem.ts';
import { stepEntries } from './step-index.ts';
import type { Problem, Project } from './types.ts';

/** Problems with shadowed rules and unknown flags. */
export function checkNextRules(project: Project): Problem[] {
  return stepEntries(project.flows).flatMap(({ file, path, step }) => {
    const rules = step.next ?? [];
    const always = rules.findIndex((rule) => !rule.when);
    const shadowed = rules
      .map((rule, index) => ({ rule, index }))
      .filter(({ index }) => always !== -1 && index > always)
      .map(({ index }) => ({ file, path: `${path}.next[${index}]`, message: `comes after next[${always}], which has no "when" and always applies`, fix: 'move it before that rule, or remove it' }));
    const flags = rules.flatMap((rule, index) => {
      const flag = rule.when?.flag?.replace(/^!/, '');
      if (flag === undefined || project.featureFlags.includes(flag)) return [];
      return [{ file, path: `${path}.next[${index}].when.flag`, message: `names feature flag "${flag}", which the app does not know`, fix: `add it to FLAG_DEFAULTS in contract/product.ts, or ${useOneOf(flag, project.featureFlags)}` }];
    });
    return [...shadowed, ...flags];
  });
}
