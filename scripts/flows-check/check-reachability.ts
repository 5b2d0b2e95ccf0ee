/**
 * Guards against orphan steps: every step can be reached from an entry step (one with `init`), a
 * challenge the server can send, an API error it claims (an entry call failing with it shows the step), a
 * terminal step or a step the app names (src/config.ts), through next rules, links and guards of reachable steps.
 */
import { stepEntries, stepLinks } from './step-index.ts';
import type { Problem, Project } from './types.ts';

/** The ids of every step reachable from the seeds, following next rules and links. */
export function reachableSteps(project: Project): Set<string> {
  const entries = stepEntries(project.flows);
  const byId = new Map(entries.map((entry) => [entry.id, entry.step]));
  const seeds = entries
    .filter(({ step }) => step.init || step.terminal || (step.errors ?? []).length > 0 || (step.challenges ?? []).some((kind) => project.serverChallenges.includes(kind)))
    .map(({ id }) => id);
  const queue = [...seeds, ...project.appSteps.map(({ step }) => step)];
  const reached = new Set<string>();
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    const step = byId.get(id);
    if (!step || reached.has(id)) continue;
    reached.add(id);
    queue.push(...(step.next ?? []).map((rule) => rule.go), ...stepLinks(step).map(({ link }) => link.go), ...(step.guard ? [step.guard.otherwise] : []));
  }
  return reached;
}

/** Problems with steps nothing leads to. */
export function checkReachability(project: Project): Problem[] {
  const reached = reachableSteps(project);
  return stepEntries(project.flows)
    .filter(({ id }) => !reached.has(id))
    .map(({ file, path, id, step }) => {
      const unsent = (step.challenges ?? []).filter((kind) => !project.serverChallenges.includes(kind));
      const why = unsent.length ? `it claims only ${unsent.join(', ')}, which the server does not send (contract/challenges.ts)` : 'no init, no challenge, and no next rule or link of a reachable step leads to it';
      return { file, path, message: `step "${id}" cannot be reached: ${why}`, fix: 'link to it from a reachable step, or claim a challenge the server sends' };
    });
}
