/**
 * Guards what is generated from contract/ and the meta-schema: the meta-schema's challenge enum must be the contract's
 * list, in its order, and the flow file's types (contract/flow-file.ts, contract/flow-file/) must be the meta-schema's. Runs before the
 * meta-schema check, since a drifted enum makes that check report the wrong problems.
 */
import { GENERATE_COMMAND, META_SCHEMA_FILE } from '../contract/generated-files.ts';
import type { Problem, Project } from './types.ts';

/** A problem when the meta-schema's challenge kinds differ from the contract's. */
function challengeDrift(challengeKinds: readonly string[], contractChallenges: readonly string[]): Problem[] {
  if (challengeKinds.length === contractChallenges.length && challengeKinds.every((kind, index) => kind === contractChallenges[index])) return [];
  const missing = contractChallenges.filter((kind) => !challengeKinds.includes(kind));
  const extra = challengeKinds.filter((kind) => !contractChallenges.includes(kind));
  const differences = [
    ...(missing.length ? [`lacks ${missing.join(', ')}`] : []),
    ...(extra.length ? [`has ${extra.join(', ')}, which the contract does not`] : []),
  ];
  const what = differences.length ? differences.join('; ') : 'lists the kinds in another order';
  return [
    {
      file: META_SCHEMA_FILE,
      path: 'definitions.challengeKind.enum',
      message: `is generated from contract/challenges.ts but ${what}`,
      fix: `run ${GENERATE_COMMAND} (edit contract/challenges.ts, never the enum)`,
    },
  ];
}

/** A problem for each generated flow type file that is stale or missing, and each committed one no longer generated. */
function flowTypesDrift(flowTypes: Project['flowTypes']): Problem[] {
  if (!flowTypes) return [];
  const fix = `run ${GENERATE_COMMAND} and commit the files (edit the meta-schema, never the generated types)`;
  const problems: Problem[] = [];
  for (const [file, text] of flowTypes.generated) {
    const committed = flowTypes.committed.get(file);
    if (committed === text) continue;
    const message = committed === undefined ? `is missing: it is generated from ${META_SCHEMA_FILE}` : `is stale: it is generated from ${META_SCHEMA_FILE}, which has changed since`;
    problems.push({ file, path: '1', message, fix });
  }
  for (const file of flowTypes.committed.keys()) {
    if (!flowTypes.generated.has(file)) problems.push({ file, path: '1', message: `is no longer generated from ${META_SCHEMA_FILE}`, fix });
  }
  return problems;
}

/** The problems of what is generated: the meta-schema's challenge kinds, and the flow file's types. */
export function checkContractDrift(project: Pick<Project, 'challengeKinds' | 'contractChallenges' | 'flowTypes'>): Problem[] {
  return [...challengeDrift(project.challengeKinds, project.contractChallenges), ...flowTypesDrift(project.flowTypes)];
}
