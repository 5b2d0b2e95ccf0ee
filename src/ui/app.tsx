/**
 * The app: routes derived from every step's `route` and `aliases`, under the /auth base. The root
 * goes to the entry step; any other unknown path renders the not-found step.
 */
import { Provider } from 'jotai';
import type { createStore } from 'jotai';
import { Redirect, Route, Router, Switch, useSearch } from 'wouter';
import { config } from '../config.ts';
import { stepRegistry } from '../core/flows.ts';
import { buildStepPath, decodeRouteParams, stepRoutePatterns } from '../core/routes.ts';
import { AppErrorBoundary } from './app-error-boundary.tsx';
import { StepView } from './step-view.tsx';

const steps = [...stepRegistry.steps.values()];

/** Sends the root path to the entry step, keeping the query a client app sent. */
function RootRedirect() {
  const search = useSearch();
  const path = buildStepPath(stepRegistry.get(config.entryStep)) ?? '/';
  return <Redirect to={search ? `${path}?${search}` : path} replace />;
}

/** The whole web app; `store` is the one the browser services also set (src/state/app-store.ts), else its own. */
export function App({ store }: { store?: ReturnType<typeof createStore> }) {
  return (
    <Provider store={store}>
      <AppErrorBoundary>
        <Router base={config.basePath}>
          <Switch>
            <Route path="/">
              <RootRedirect />
            </Route>
            {steps.flatMap((step) =>
              stepRoutePatterns(step).map((pattern) => (
                <Route key={pattern} path={pattern}>
                  {(params) => <StepView key={step.id} step={step} params={decodeRouteParams(params)} />}
                </Route>
              )),
            )}
            <Route>
              <StepView step={stepRegistry.get(config.notFoundStep)} />
            </Route>
          </Switch>
        </Router>
      </AppErrorBoundary>
    </Provider>
  );
}
