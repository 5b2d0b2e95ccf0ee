/**
 * Guards the names everything else points at: each flow's id matches its file name (the diagram
 * is written to docs/flows/<id>.svg), and no step id is used twice, since `go` names a step in any flow.
 */
import { stepEntries } from './step-index.ts';
import type { Problem, Project } from './types.ts';

/** Problems with flow ids and duplicated step ids. */
export function checkIds(project: Project): Problem[] {
  const problems: Problem[] = [];
  for (const { file, flow } of project.flows) {
    const expected = file.replace(/^.*\//, '').replace(/\.json$/, '');
    if (flow.id !== expected) problems.push({ file, path: 'id', message: `is "${flow.id}" but the file is ${expected}.json`, fix: `rename one so both say "${expected}" or "${flow.id}"` });
  }
  const seen = new Map<string, string>();
  for (const entry of stepEntries(project.flows)) {
    const first = seen.get(entry.id);
    if (first) problems.push({ file: entry.file, path: entry.path, message: `step id "${entry.id}" is already used in ${first}`, fix: 'give one of them another id' });
    else seen.set(entry.id, entry.file);
  }
  return problems;
}
