/**
 * Guards the route table (flows/shell/routes.json) against the flows: every step route and alias
 * is listed with its step's title (the title the document takes there), every redirect leads to a
 * listed route, no route is listed twice, and every legacy title carries the "Old" prefix.
 */
import type { RouteTable } from '../../src/engine/route-table.ts';
import { stepEntries } from './step-index.ts';
import type { Problem, Project } from './types.ts';

/** Where the route table lives, relative to the project root. */
export const ROUTE_TABLE_FILE = 'flows/shell/routes.json';

const LEGACY_TITLE_PREFIX = 'Old ';

/** Problems of the route table's own entries: duplicates, redirect targets, legacy titles. */
function tableProblems(table: RouteTable): Problem[] {
  const file = ROUTE_TABLE_FILE;
  const listed = new Set<string>();
  const problems: Problem[] = [];
  table.routes.forEach((route, index) => {
    if (listed.has(route.path)) problems.push({ file, path: `routes[${index}]`, message: `"${route.path}" is listed twice`, fix: 'remove one of them' });
    listed.add(route.path);
  });
  const redirects = [
    { at: 'root', redirect: table.root },
    { at: 'legacyRoot', redirect: table.legacyRoot },
    ...table.legacy.map((redirect, index) => ({ at: `legacy[${index}]`, redirect })),
  ];
  for (const { at, redirect } of redirects) {
    if (!listed.has(redirect.to)) problems.push({ file, path: `${at}.to`, message: `redirects to "${redirect.to}", which is not a listed route`, fix: `list it under "routes", or point "to" at a listed route` });
  }
  table.legacy.forEach((legacy, index) => {
    if (!legacy.title.startsWith(LEGACY_TITLE_PREFIX)) {
      problems.push({ file, path: `legacy[${index}].title`, message: `legacy title "${legacy.title}" lacks the "Old" prefix`, fix: `write "${LEGACY_TITLE_PREFIX}${legacy.title}"` });
    }
  });
  return problems;
}

/** Problems of step routes and aliases missing from the table, or titled differently there. */
function stepRouteProblems(project: Project, table: RouteTable): Problem[] {
  const titles = new Map(table.routes.map((route) => [route.path, route.title]));
  return stepEntries(project.flows).flatMap(({ file, path, id, step }) =>
    [step.route, ...(step.aliases ?? [])].flatMap((route): Problem[] => {
      const listedTitle = titles.get(route);
      if (listedTitle === undefined) {
        return [{ file, path: `${path}.route`, message: `route "${route}" of step "${id}" is not in ${ROUTE_TABLE_FILE}`, fix: `add {"path": ${JSON.stringify(route)}, "title": ${JSON.stringify(step.title)}} to its "routes"` }];
      }
      if (listedTitle !== step.title) {
        return [{ file, path: `${path}.title`, message: `step "${id}" is titled "${step.title}" but ${ROUTE_TABLE_FILE} titles "${route}" "${listedTitle}"`, fix: `make both the same: set the title of "${route}" in ${ROUTE_TABLE_FILE}, or this step's title, to the spec's wording` }];
      }
      return [];
    }),
  );
}

/** Problems with the route table and the flows' routes against it; none when the project has no table. */
export function checkShellRoutes(project: Project): Problem[] {
  const table = project.routeTable;
  if (!table) return [];
  return [...tableProblems(table), ...stepRouteProblems(project, table)];
}
