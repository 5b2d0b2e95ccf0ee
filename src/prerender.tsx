/**
 * The build-time entry (scripts/prerender.ts): the first screen's markup, rendered without a
 * browser, so /auth/login paints before any script runs; src/main.tsx then hydrates it.
 */
import { renderToString } from 'react-dom/server';
import { config } from './config.ts';
import { stepRegistry } from './engine/step-registry.ts';
import { buildStepPath } from './engine/routes.ts';
import { App } from './ui/app.tsx';

/** The first screen's path under the base ("/auth/login"), its title and its markup. */
export function prerenderFirstScreen(): { path: string; title: string; html: string } {
  const step = stepRegistry.get(config.entryStep);
  const path = `${config.basePath}${buildStepPath(step) ?? '/'}`;
  return { path, title: step.title, html: renderToString(<App ssrPath={path} />) };
}
