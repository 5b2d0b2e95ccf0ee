/**
 * Step routes: flow `route` strings ("mfa/verify-email/:action?") to router patterns and back to paths.
 */
import type { Step } from './flow-types.ts';

/** The router pattern for a step route; wouter understands `:name` and `:name?` as written. */
export function toRoutePattern(route: string): string {
  return `/${route}`;
}

/** Every path pattern that renders `step`: its route, then its aliases. */
export function stepRoutePatterns(step: Step): string[] {
  return [step.route, ...(step.aliases ?? [])].map(toRoutePattern);
}

/**
 * Route parameters as the user wrote them. The router decodes paths with decodeURI, which leaves
 * reserved characters such as "@" (%40) escaped, so "d•••%40example.com" needs a second pass.
 */
export function decodeRouteParams(params: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  const decoded: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(params)) {
    try {
      decoded[name] = value === undefined ? undefined : decodeURIComponent(value);
    } catch {
      decoded[name] = value;
    }
  }
  return decoded;
}

/**
 * The concrete path of `step`, filling `:name` segments from the step's fixed `routeValues`, else from `params`.
 * Undefined when a required segment has no value, since such a URL could not be entered again.
 */
export function buildStepPath(step: Pick<Step, 'route' | 'routeValues'>, values: Readonly<Record<string, unknown>> = {}): string | undefined {
  const params = { ...values, ...step.routeValues };
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

/** Route parameters usable as words: a fixed `routeValues` entry says nothing about the person, so it fills none. */
export function wordingRouteParams(step: Pick<Step, 'routeValues'>, params: Readonly<Record<string, string | undefined>> = {}): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(params).filter(([name, value]) => step.routeValues?.[name] !== value));
}
