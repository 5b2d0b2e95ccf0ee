/**
 * Guards the addresses: every route and alias is a well-formed path (words and `:parameters`, an
 * optional `:parameter?` only last), an alias takes the same parameters as its route, and no two
 * paths of any flows could match the same address (the router would pick one silently).
 */
import { stepEntries } from './step-index.ts';
import type { Problem, Project } from './types.ts';

interface Path {
  file: string;
  at: string;
  stepId: string;
  path: string;
}

const PARAMETER = /^:([a-z_][a-z0-9_]*)(\?)?$/;
const WORD = /^[a-z0-9][a-z0-9_-]*$/;

/** What is wrong with the form of one path, if anything. */
function formProblem(path: string): { message: string; fix: string } | undefined {
  const segments = path.split('/');
  if (segments.some((segment) => segment === '')) return { message: `"${path}" has an empty segment`, fix: 'remove the doubled or trailing slash' };
  const names: string[] = [];
  for (const [index, segment] of segments.entries()) {
    const parameter = PARAMETER.exec(segment);
    if (!parameter && !WORD.test(segment)) return { message: `segment "${segment}" of "${path}" is neither a word nor a :parameter`, fix: 'write :name for a parameter, :name? for an optional last one' };
    if (parameter?.[2] && index < segments.length - 1) return { message: `optional parameter "${segment}" of "${path}" is not last`, fix: 'make it required, or move it to the end' };
    if (parameter?.[1] && names.includes(parameter[1])) return { message: `"${path}" names parameter ":${parameter[1]}" twice`, fix: 'give each parameter its own name' };
    if (parameter?.[1]) names.push(parameter[1]);
  }
  return undefined;
}

/** The parameter names of a path, sorted. */
const parameterNames = (path: string): string => path.split('/').flatMap((segment) => PARAMETER.exec(segment)?.[1] ?? []).sort().join(', ');

/** The segment lists a path matches: one, or two when its last parameter is optional. */
function shapes(path: string): string[][] {
  const segments = path.split('/');
  return segments.at(-1)?.endsWith('?') ? [segments.slice(0, -1), segments] : [segments];
}

/** Whether some address matches both paths: same length, and every segment pair equal or a parameter. */
function overlap(a: string, b: string): boolean {
  return shapes(a).some((left) =>
    shapes(b).some((right) => left.length === right.length && left.every((segment, index) => segment === right[index] || segment.startsWith(':') || right[index]?.startsWith(':'))),
  );
}

/** Problems with the form, parameters and overlaps of routes and aliases. */
export function checkRoutes(project: Project): Problem[] {
  const problems: Problem[] = [];
  const seen: Path[] = [];
  for (const { file, path, id, step } of stepEntries(project.flows)) {
    const paths: Path[] = [
      { file, at: `${path}.route`, stepId: id, path: step.route },
      ...(step.aliases ?? []).map((alias, index) => ({ file, at: `${path}.aliases[${index}]`, stepId: id, path: alias })),
    ];
    for (const candidate of paths) {
      const wrong = formProblem(candidate.path);
      if (wrong) {
        problems.push({ file, path: candidate.at, ...wrong });
        continue;
      }
      if (candidate.path !== step.route && parameterNames(candidate.path) !== parameterNames(step.route)) {
        problems.push({ file, path: candidate.at, message: `alias "${candidate.path}" takes parameters (${parameterNames(candidate.path) || 'none'}) unlike route "${step.route}" (${parameterNames(step.route) || 'none'})`, fix: 'an alias shows the same screen: give it the same parameters' });
      }
      const clash = seen.find((other) => overlap(other.path, candidate.path));
      if (clash) {
        const owner = `the ${clash.at.endsWith('.route') ? 'route' : 'alias'} of step "${clash.stepId}" (${clash.file})`;
        const message = clash.path === candidate.path ? `"${candidate.path}" is already ${owner}` : `"${candidate.path}" matches the same addresses as "${clash.path}", ${owner}`;
        problems.push({ file, path: candidate.at, message, fix: 'choose a path no other step uses' });
      }
      seen.push(candidate);
    }
  }
  return problems;
}
