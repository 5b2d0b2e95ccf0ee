/**
 * Step routes: flow `route` strings ("mfa/verify-email/:action?") to router patterns and back to paths.
 */
import type { Step } from './flow-types.ts';

/** The router pattern for a step route; wouter understands `:name` and `:name?` as written. */
export function toRoutePattern(route: string): string {
  return `/${route}`;
}

/**
 * The concrete path of `step`, filling `:name` segments from `params`.
 * Undefined when a required segment has no value, since such a URL could not be entered again.
 */
export function buildStepPath(step: Step, params: Readonly<Record<string, unknown>> = {}): string | undefined {
  const segments: string[] = [];
  for (const segment of step.route.split('/')) {
    if (!segment.startsWith(':')) {
      segments.push(segment);
      continue;
    }
    const optional = segment.endsWith('?');
    const name = segment.slice(1, optional ? -1 : undefined);
    const value = params[name];
    if (typeof value === 'string' || typeof value === 'number') segments.push(encodeURIComponent(String(value)));
    else if (!optional) return undefined;
  }
  return `/${segments.join('/')}`;
}

/** The query names carried between steps: the configured ones plus every init call's query values. */
export function carriedQueryNames(steps: Iterable<Step>, configured: readonly string[]): readonly string[] {
  const names = new Set(configured);
  for (const step of steps) for (const name of step.init?.query ?? []) names.add(name);
  return [...names];
}

/** "?a=1&b=2" holding only the `names` present in `search` (or "" when none are). */
export function carryQuery(search: string, names: readonly string[]): string {
  const from = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const name of names) {
    const value = from.get(name);
    if (value !== null) kept.set(name, value);
  }
  const text = kept.toString();
  return text ? `?${text}` : '';
}
