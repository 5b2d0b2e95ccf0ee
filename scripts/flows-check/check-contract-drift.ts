/**
 * Guards what is generated from contract/: the meta-schema's challenge enum must be the contract's list, in its order.
 * Runs before the meta-schema check, since a drifted enum makes that check report the wrong problems.
 */
import { GENERATE_COMMAND, META_SCHEMA_FILE } from '../contract/generated-files.ts';
import type { Problem, Project } from './types.ts';

/** A problem when the meta-schema's challenge kinds differ from the contract's. */
export function checkContractDrift(project: Pick<Project, 'challengeKinds' | 'contractChallenges'>): Problem[] {
  const { challengeKinds, contractChallenges } = project;
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
