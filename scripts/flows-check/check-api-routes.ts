/**
 * Guards the calls: every call a flow makes is a route of the step API (a misspelt path would answer 404), and every
 * step route is called by some flow. The server refuses to start on the same disagreement (server/api/step-api.ts).
 */
import { compileFlowGraph } from '../../contract/flow-graph.ts';
import { routeMismatches } from '../../server/api/step-api.ts';
import type { Problem, Project } from './types.ts';

/** Calls no route serves, and step routes no flow calls; nothing when the project's routes were not read. */
export function checkApiRoutes(project: Project): Problem[] {
  if (!project.apiRoutes) return [];
  const graph = compileFlowGraph(project.flows.map(({ flow }) => flow));
  return routeMismatches(graph, project.apiRoutes);
}
