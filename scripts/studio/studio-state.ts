/**
 * The studio's state, read afresh from a flows root (the project, or a copy of its flows/ and schemas/): every flow and
 * step of the compiled flow graph, the steps' example inputs and validation messages, the flows:check problems placed
 * beside the step they concern, and the flow diagrams.
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { compileFlowGraph, type GraphFlowSource } from '../../contract/flow-graph.ts';
import { stepApiRoutes } from '../../server/api/step-api.ts';
import type { StepDefinition } from '../../src/engine/flow-types.ts';
import type { StudioFlow, StudioProblem, StudioSample, StudioState, StudioStep, StudioValidationMessage } from '../../src/studio/studio-types.ts';
import { loadProject, type LoadedProject } from '../flows-check/load-project.ts';
import { findProblems } from '../flows-check/run-checks.ts';
import type { Catalogue } from '../flows-check/types.ts';
import { DIAGRAM_DIR, renderFlowDiagrams } from '../flows-diagram/render-flows.ts';

/** Where the studio reads from: the flows root it shows, and the project (its src/ names message keys, its fixtures). */
export interface StudioRoots {
  flowsRoot: string;
  projectRoot: string;
}

interface FlowData {
  id: string;
  description?: string;
  steps: Record<string, StepDefinition>;
}

const isFlow = (data: unknown): data is FlowData =>
  typeof data === 'object' && data !== null && typeof (data as FlowData).id === 'string' && typeof (data as FlowData).steps === 'object' && (data as FlowData).steps !== null;

/** The case names (file names without .json) in `dir`. */
function caseNames(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.json')).map((name) => name.replace(/\.json$/, '')).sort() : [];
}

/** The ways the step's form is shown: its example (or an empty form), each refused example, and an empty submit. */
function samplesOf(step: StepDefinition): StudioSample[] {
  if (!step.form) return [{ id: 'example', label: 'As it opens', values: {}, submit: false }];
  const examples = step.examples;
  const invalid = (examples?.invalid ?? []).map(({ values, message }, index): StudioSample => ({
    id: `invalid-${index + 1}`,
    label: `Refused example ${index + 1}`,
    values,
    submit: true,
    expected: message,
  }));
  return [
    { id: 'example', label: examples ? 'Example inputs' : 'As it opens (the step declares no examples)', values: examples?.valid ?? {}, submit: false },
    ...invalid,
    { id: 'empty-submit', label: 'Submitted empty', values: {}, submit: true },
  ];
}

/** The form's validation messages in every language. */
function validationOf(step: StepDefinition, catalogues: ReadonlyMap<string, Catalogue>): StudioValidationMessage[] {
  return Object.entries(step.form?.messages ?? {}).flatMap(([field, rules]) =>
    Object.entries(rules).map(([rule, key]) => ({ field, rule, key, words: Object.fromEntries([...catalogues].map(([language, catalogue]) => [language, catalogue[key] ?? ''])) })),
  );
}

/** Whether `problem` concerns the step `id` of `file`: said of it, of a word it shows, or of its form's schema. */
function concerns(problem: StudioProblem, file: string, id: string, step: StepDefinition): boolean {
  if (problem.file === file) return problem.path === `steps.${id}` || problem.path.startsWith(`steps.${id}.`) || problem.path.startsWith(`steps.${id}[`);
  if (problem.file.startsWith('schemas/forms/')) return step.form?.schema === basename(problem.file);
  if (problem.file.startsWith('flows/messages/')) return JSON.stringify(step).includes(JSON.stringify(problem.path));
  return false;
}

/** What the project's code says, read once: the step API's routes and the message keys its src/ names. */
type CodeFacts = Pick<LoadedProject['base'], 'apiRoutes' | 'keyReferences'>;
const codeFacts = new Map<string, Promise<CodeFacts>>();

function factsOf(projectRoot: string): Promise<CodeFacts> {
  let facts = codeFacts.get(projectRoot);
  if (!facts) {
    facts = stepApiRoutes().then((apiRoutes) => ({ apiRoutes, keyReferences: loadProject(projectRoot).base.keyReferences }));
    codeFacts.set(projectRoot, facts);
  }
  return facts;
}

/** Reads the whole studio state. */
export async function readStudioState(roots: StudioRoots): Promise<StudioState> {
  const facts = await factsOf(roots.projectRoot);
  const read = loadProject(roots.flowsRoot);
  const loaded = { ...read, base: { ...read.base, ...facts } };
  const problems: StudioProblem[] = findProblems(loaded);
  const sources = loaded.raw.flatMap(({ file, data }) => (isFlow(data) ? [{ file, flow: data }] : []));
  const graph = compileFlowGraph(sources.map(({ flow }): GraphFlowSource => flow as unknown as GraphFlowSource));
  const diagrams = renderFlowDiagrams(loaded);
  const english = loaded.base.catalogues.get('en') ?? {};
  const placed = new Set<StudioProblem>();
  const flows = sources.map(({ file, flow }): StudioFlow => {
    const steps = Object.entries(flow.steps).map(([id, step]): StudioStep => {
      const own = problems.filter((problem) => concerns(problem, file, id, step));
      own.forEach((problem) => placed.add(problem));
      const compiled = graph.steps[id];
      return {
        id,
        flow: flow.id,
        route: step.route,
        headline: step.headline ? (english[step.headline] ?? step.headline) : '',
        hasForm: step.form !== undefined,
        leadsTo: compiled?.leadsTo ?? [],
        linksTo: compiled?.linksTo ?? [],
        samples: samplesOf(step),
        validation: validationOf(step, loaded.base.catalogues),
        problems: own,
      };
    });
    const rest = problems.filter((problem) => problem.file === file && !placed.has(problem));
    rest.forEach((problem) => placed.add(problem));
    return {
      id: flow.id,
      file,
      description: flow.description ?? '',
      steps,
      problems: rest,
      diagram: diagrams.get(`${DIAGRAM_DIR}/${flow.id}.svg`) ?? '',
      fixtures: caseNames(join(roots.projectRoot, 'tests', 'fixtures', 'flows', flow.id)),
      walks: caseNames(join(roots.projectRoot, 'tests', 'fixtures', 'walks', flow.id)),
    };
  });
  const broken = loaded.raw.filter(({ data }) => !isFlow(data)).map(({ file, syntaxError }) => ({ file, path: syntaxError ? `line ${syntaxError.line}` : '', message: syntaxError?.message ?? 'not a flow', fix: 'fix the JSON' }));
  return {
    flows,
    otherProblems: [...problems.filter((problem) => !placed.has(problem)), ...broken.filter((problem) => !problems.some((known) => known.file === problem.file))],
    languages: [...loaded.base.catalogues.keys()],
    readAt: Date.now(),
  };
}
