/**
 * Guards the answers: every challenge kind the server can send (contract/challenges.ts) is claimed by
 * exactly one step, every kind of the meta-schema has a step (unbuilt ones go to the terminal step
 * that covers them), and the server sends no kind the meta-schema does not know.
 */
import { GENERATE_COMMAND } from '../contract/generated-files.ts';
import { stepEntries } from './step-index.ts';
import type { Problem, Project } from './types.ts';

const CONTRACT_FILE = 'contract/challenges.ts';

/** Problems with challenge kinds claimed by no step, or by more than one. */
export function checkChallenges(project: Project): Problem[] {
  const entries = stepEntries(project.flows);
  const catchAll = entries.find(({ step }) => step.terminal && step.challenges?.length);
  const orCatchAll = catchAll ? ` (or of "${catchAll.id}" until it is built)` : '';
  const problems: Problem[] = [];
  const claimers = new Map<string, string>();
  for (const { file, path, id, step } of entries) {
    (step.challenges ?? []).forEach((kind, index) => {
      const first = claimers.get(kind);
      if (first) problems.push({ file, path: `${path}.challenges[${index}]`, message: `claims ${kind}, which step "${first}" claims too`, fix: 'keep one claimer: the engine cannot choose' });
      else claimers.set(kind, id);
    });
  }
  for (const kind of project.serverChallenges) {
    const at = `CHALLENGES.${kind}`;
    if (!project.challengeKinds.includes(kind)) {
      problems.push({ file: CONTRACT_FILE, path: at, message: `${kind} is not a challenge kind of the meta-schema`, fix: `run ${GENERATE_COMMAND}` });
    } else if (!claimers.has(kind)) {
      problems.push({ file: CONTRACT_FILE, path: at, message: `the server can send ${kind}, but no step claims it`, fix: `add it to the challenges of the step that handles it${orCatchAll}` });
    }
  }
  project.challengeKinds.forEach((kind, index) => {
    if (claimers.has(kind) || project.serverChallenges.includes(kind)) return;
    problems.push({ file: 'schemas/flow.schema.json', path: `definitions.challengeKind.enum[${index}]`, message: `no step claims ${kind}`, fix: `add it to the challenges of the step that handles it${orCatchAll}` });
  });
  return problems;
}
