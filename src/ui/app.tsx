/**
 * The app: routes derived from every step's `route` and `aliases`, under the /auth base. The root
 * goes to the entry step; any other unknown path renders the not-found step.
 */
import { Provider } from 'jotai';
import { Redirect, Route, Router, Switch, useSearch } from 'wouter';
import { config } from '../config.ts';
import { stepRegistry } from '../core/flows.ts';
import { buildStepPath, decodeRouteParams, stepRoutePatterns } from '../core/routes.ts';
import { StepView } from './step-view.tsx';

const steps = [...stepRegistry.steps.values()];

/** Sends the root path to the entry step, keeping the query a client app sent. */
function RootRedirect() {
  const search = useSearch();
  const path = buildStepPath(stepRegistry.get(config.entryStep)) ?? '/';
  return <Redirect to={search ? `${path}?${search}` : path} replace />;
}

/** The whole web app. */
export function App() {
  return (
    <Provider>
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
    </Provider>
  );
}
