/** Runs the meta-schema check, then (once every flow validates) the check table, and words the outcome. */
import { checkContractDrift } from './check-contract-drift.ts';
import { checkMetaSchema } from './check-meta-schema.ts';
import { checks as defaultChecks } from './checks.ts';
import type { LoadedProject } from './load-project.ts';
import { formatProblem } from './problem.ts';
import type { FlowDefinition } from '../../src/engine/flow-types.ts';
import type { FlowCheck, FlowFile, Problem } from './types.ts';

/** What flows:check prints and its exit code. */
export interface CheckReport {
  problems: Problem[];
  lines: string[];
  exitCode: 0 | 1;
}

/**
 * Every problem of the project: drift from the contract first, then the meta-schema's alone when there are any,
 * since the other checks trust the shape.
 */
export function findProblems(loaded: LoadedProject, checks: readonly FlowCheck[] = defaultChecks): Problem[] {
  const drift = checkContractDrift(loaded.base);
  const shape = checkMetaSchema(loaded.raw, loaded.metaSchema);
  if (shape.length > 0) return [...drift, ...shape];
  const flows = loaded.raw.map(({ file, data }): FlowFile => ({ file, flow: data as FlowDefinition }));
  const project = { ...loaded.base, flows };
  return [...drift, ...checks.flatMap((check) => check.run(project))];
}

/** The report for a project: one line per problem (grouped by file, in check order), then a summary. */
export function checkReport(loaded: LoadedProject, checks?: readonly FlowCheck[]): CheckReport {
  const problems = findProblems(loaded, checks);
  const flows = loaded.raw.length;
  const steps = loaded.raw.reduce((total, { data }) => total + Object.keys((data as { steps?: object } | undefined)?.steps ?? {}).length, 0);
  const files = [...new Set(problems.map((problem) => problem.file))];
  const ordered = files.flatMap((file) => problems.filter((problem) => problem.file === file));
  const size = `${flows} flows, ${steps} steps`;
  if (problems.length === 0) return { problems, lines: [`flows:check: ${size}, no problems`], exitCode: 0 };
  const count = `${problems.length} problem${problems.length === 1 ? '' : 's'}`;
  return { problems: ordered, lines: [...ordered.map(formatProblem), `flows:check: ${size}, ${count}`], exitCode: 1 };
}
