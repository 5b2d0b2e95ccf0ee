/**
 * Which step route a path shows, matched the way the app's router does: each step's route, then
 * its aliases, in registry order; a path no step owns shows the not-found step.
 */

/** The parts of a step that decide which paths render it. */
export interface RoutedStep {
  route: string;
  aliases?: readonly string[];
}

/** A pattern like "change-password/:delivery_destination" or "mfa/:action?" as a regular expression. */
function patternRegExp(pattern: string): RegExp {
  const source = pattern
    .split('/')
    .map((segment) => {
      if (segment.startsWith(':')) return segment.endsWith('?') ? '(?:/[^/]+)?' : '/[^/]+';
      return `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
    })
    .join('');
  return new RegExp(`^${source}/?$`);
}

/** Builds the lookup: path under `basePath` -> the route of the step shown there (`fallback` when none). */
export function createRouteOf(steps: Iterable<RoutedStep>, basePath: string, fallback: string): (path: string) => string {
  const table = [...steps].flatMap((step) => [step.route, ...(step.aliases ?? [])].map((pattern) => ({ route: step.route, regExp: patternRegExp(pattern) })));
  return (path) => {
    const local = path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : path;
    return table.find(({ regExp }) => regExp.test(local))?.route ?? fallback;
  };
}
