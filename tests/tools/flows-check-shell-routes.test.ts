/** flows:check's route-table check: each way the table and the flows' routes can disagree, with the exact line printed. */
import { checkShellRoutes } from '../../scripts/flows-check/check-shell-routes.ts';
import type { Project } from '../../scripts/flows-check/types.ts';
import { describeChecks, stepOf } from './support/check-project.ts';

const F = 'flows/start.json';
const T = 'flows/shell/routes.json';

/** The test project's route table, to break. */
function tableOf(project: Project): NonNullable<Project['routeTable']> {
  if (!project.routeTable) throw new Error('the test project has no route table');
  return project.routeTable;
}

describeChecks('the route table check', [checkShellRoutes], {
  'a step route missing from the table': {
    check: checkShellRoutes,
    change: (p) => void (stepOf(p, 'done').route = 'finished'),
    lines: [`${F}:steps.done.route — route "finished" of step "done" is not in ${T} — add {"path": "finished", "title": "Done"} to its "routes"`],
  },
  'an alias missing from the table': {
    check: checkShellRoutes,
    change: (p) => void (stepOf(p, 'help').aliases = ['faq/:topic?']),
    lines: [`${F}:steps.help.route — route "faq/:topic?" of step "help" is not in ${T} — add {"path": "faq/:topic?", "title": "Help"} to its "routes"`],
  },
  'a step titled unlike its route': {
    check: checkShellRoutes,
    change: (p) => void (stepOf(p, 'done').title = 'All Done'),
    lines: [`${F}:steps.done.title — step "done" is titled "All Done" but ${T} titles "done" "Done" — make both the same: set the title of "done" in ${T}, or this step's title, to the spec's wording`],
  },
  'a route listed twice': {
    check: checkShellRoutes,
    change: (p) => void (tableOf(p).routes = [...tableOf(p).routes, { path: 'done', title: 'Done' }]),
    lines: [`${T}:routes[4] — "done" is listed twice — remove one of them`],
  },
  'a legacy redirect to an unlisted route': {
    check: checkShellRoutes,
    change: (p) => void (tableOf(p).legacy = [{ path: 'sign-up', title: 'Old Register', to: 'register' }]),
    lines: [`${T}:legacy[0].to — redirects to "register", which is not a listed route — list it under "routes", or point "to" at a listed route`],
  },
  'a root redirect to an unlisted route': {
    check: checkShellRoutes,
    change: (p) => void (tableOf(p).root = { title: 'Index', to: 'login' }),
    lines: [`${T}:root.to — redirects to "login", which is not a listed route — list it under "routes", or point "to" at a listed route`],
  },
  'a legacy title without the Old prefix': {
    check: checkShellRoutes,
    change: (p) => void (tableOf(p).legacy = [{ path: 'log-in', title: 'Sign In', to: 'sign-in' }]),
    lines: [`${T}:legacy[0].title — legacy title "Sign In" lacks the "Old" prefix — write "Old Sign In"`],
  },
});
