/**
 * Step links (a step's `links`): the path of the target step and the query it carries, the page's
 * carried query plus the values the link names.
 */
import type { Step, StepLink } from './flow-types.ts';
import { buildStepPath } from './routes.ts';
import { resolveValues, type ValueInputs } from './value-sources.ts';

/** What a link's href is built from. */
export interface LinkInputs extends ValueInputs {
  /** The carried page query, "?a=b" or "". */
  carried: string;
  /** The current step's route parameters, for the target's `:name` segments. */
  routeParams?: Readonly<Record<string, unknown>>;
}

/** The href (under the app base) of `link` to `target`, or undefined when a route segment has no value. */
export function stepLinkHref(link: StepLink, target: Step, inputs: LinkInputs): string | undefined {
  const path = buildStepPath(target, { ...inputs.parameters, ...inputs.routeParams });
  if (path === undefined) return undefined;
  const query = new URLSearchParams(inputs.carried);
  for (const [name, value] of Object.entries(resolveValues(link.query, inputs))) query.set(name, value);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
