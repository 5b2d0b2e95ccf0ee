/**
 * Step links (a step's `links`): the path of the target step and the query it carries, the page's
 * carried query, less the names it leaves behind, plus the values the link names.
 */
import { conditionHolds, type Answer, type Flags } from '../../contract/conditions.ts';
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
  for (const name of link.without ?? []) query.delete(name);
  for (const [name, value] of Object.entries(resolveValues(link.query, inputs))) query.set(name, value);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** The links whose `when` holds for the answer that led to the step (a link without one always shows). */
export function shownLinks(links: readonly StepLink[] | undefined, answer: Answer | undefined, flags: Flags): StepLink[] {
  return (links ?? []).filter((link) => !link.when || conditionHolds(link.when, answer ?? {}, flags));
}
