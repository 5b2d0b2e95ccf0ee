/**
 * The app: the step the engine chose, while the browser is at its address; else (a typed address, a reload, Back or
 * Forward) the routes of the route table (flows/shell/routes.json) under the /auth base, each rendering the step
 * whose route or alias it is (which titles the document); the legacy paths under the old /auth prefix redirect to
 * their new routes; the roots go to login; any other path shows the not-found step.
 */
import type { ReactNode } from 'react';
import { Provider, useAtomValue } from 'jotai';
import { Redirect, Route, Router, Switch, useLocation, useRouter, useSearch } from 'wouter';
import { config } from '../config.ts';
import { stepRegistry } from '../engine/step-registry.ts';
import { routeTable, type RouteRedirect } from '../engine/route-table.ts';
import { buildStepPath, decodeRouteParams, toRoutePattern } from '../engine/routes.ts';
import { LoadedStep } from './loaded-step.tsx';
import { AppErrorBoundary } from './app-error-boundary.tsx';
import { useDocumentTitle } from './use-document-title.ts';
import { chosenStepAtom } from '../state/chosen-step-atom.ts';
import { chosenStepAt } from './chosen-step.ts';

const stepOfPath = new Map([...stepRegistry.steps.values()].flatMap((step) => [step.route, ...(step.aliases ?? [])].map((path) => [path, step.id])));
const legacyPattern = (path: string) => toRoutePattern(`${routeTable.legacyPrefix}/${path}`);

/** Sets the document title to `title` while a redirect is under way (a step sets its own). */
function Titled({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title);
  return children;
}

/** Sends the browser on to `redirect.to`, filling its parameters and keeping the query a client app sent. */
function RouteRedirectView({ redirect, params = {} }: { redirect: RouteRedirect; params?: Readonly<Record<string, string | undefined>> }) {
  const search = useSearch();
  const path = buildStepPath({ route: redirect.to }, params) ?? '/';
  return (
    <Titled title={redirect.title}>
      <Redirect to={search ? `${path}?${search}` : path} replace />
    </Titled>
  );
}

/** An address outside the app's base (the server sends browsers the app as its "Page not found" for any such page). */
function outsideBase(pathName: string): boolean {
  return pathName !== config.basePath && !pathName.startsWith(`${config.basePath}/`);
}

/** The engine's chosen step, else the step of the address. */
function Screens() {
  const [location] = useLocation();
  const { parser } = useRouter();
  const chosen = chosenStepAt(useAtomValue(chosenStepAtom), location, parser);
  if (chosen) return <LoadedStep id={chosen.id} params={chosen.params} />;
  return (
    <Switch>
      <Route path="/">
        <RouteRedirectView redirect={routeTable.root} />
      </Route>
      <Route path={toRoutePattern(routeTable.legacyPrefix)}>
        <RouteRedirectView redirect={routeTable.legacyRoot} />
      </Route>
      {routeTable.legacy.map((legacy) => (
        <Route key={legacy.path} path={legacyPattern(legacy.path)}>
          {(params) => <RouteRedirectView redirect={legacy} params={decodeRouteParams(params)} />}
        </Route>
      ))}
      {routeTable.routes.map((route) => (
        <Route key={route.path} path={toRoutePattern(route.path)}>
          {(params) => {
            const id = stepOfPath.get(route.path);
            // A step titles the document itself (flows:check keeps its title the route's); a route no flow owns yet lends its title to the placeholder.
            return id ? (
              <LoadedStep id={id} params={decodeRouteParams(params)} />
            ) : (
              <LoadedStep id={config.notAvailableStep} title={route.title} params={decodeRouteParams(params)} />
            );
          }}
        </Route>
      ))}
      <Route>
        <LoadedStep id={config.notFoundStep} title={routeTable.unknownTitle} />
      </Route>
    </Switch>
  );
}

/** Props of the app. */
export interface AppProps {
  /** The address to render at when there is no browser (prerendering at build time). */
  ssrPath?: string;
}

/** The whole web app, with a jotai store of its own. */
export function App({ ssrPath }: AppProps) {
  return (
    <Provider>
      <AppErrorBoundary>
        <Router base={config.basePath} ssrPath={ssrPath}>
          {ssrPath === undefined && outsideBase(window.location.pathname) ? (
            <LoadedStep id={config.notFoundStep} title={routeTable.unknownTitle} />
          ) : (
            <Screens />
          )}
        </Router>
      </AppErrorBoundary>
    </Provider>
  );
}
