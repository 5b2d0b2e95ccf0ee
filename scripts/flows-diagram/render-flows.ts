/** Every flow of a project as SVG text, keyed by the file it belongs in (docs/flows/<flow-id>.svg). */
import type { FlowDefinition } from '../../src/engine/flow-types.ts';
import type { LoadedProject } from '../flows-check/load-project.ts';
import type { FlowFile } from '../flows-check/types.ts';
import { flowGraph } from './graph.ts';
import { layoutGraph } from './layout.ts';
import { renderSvg } from './svg.ts';

/** The folder the diagrams are written to, relative to the project root. */
export const DIAGRAM_DIR = 'docs/flows';

/** path -> SVG for every flow file that has an id and steps, in file order. */
export function renderFlowDiagrams(loaded: LoadedProject): Map<string, string> {
  const flows = loaded.raw
    .filter(({ data }) => typeof (data as Partial<FlowDefinition> | undefined)?.id === 'string' && typeof (data as Partial<FlowDefinition>).steps === 'object')
    .map(({ file, data }): FlowFile => ({ file, flow: data as FlowDefinition }));
  const english = loaded.base.catalogues.get('en') ?? {};
  return new Map(
    flows.map(({ flow }) => [`${DIAGRAM_DIR}/${flow.id}.svg`, renderSvg(layoutGraph(flowGraph(flow.id, flows, english, loaded.base.serverChallenges)))]),
  );
}
