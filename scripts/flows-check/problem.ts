/** Printing problems, and the "use one of" hints that make a typo obvious. */
import type { Problem } from './types.ts';

/** `file:path — message — fix`, the one-line form every problem is printed in. */
export function formatProblem(problem: Problem): string {
  return `${problem.file}:${problem.path} — ${problem.message} — ${problem.fix}`;
}

/** Levenshtein distance, for ranking suggestions by how close they are to what was written. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The candidates closest to `wrong` first (ties alphabetical), at most `limit`, with "…" when some are left out. */
export function closest(wrong: string, candidates: Iterable<string>, limit = 5): string {
  const ranked = [...new Set(candidates)].sort((a, b) => distance(wrong, a) - distance(wrong, b) || a.localeCompare(b));
  if (ranked.length === 0) return '(none)';
  return ranked.length > limit ? `${ranked.slice(0, limit).join(', ')}, …` : ranked.join(', ');
}

/** "use one of: a, b, …" for a name that is not among `candidates`. */
export function useOneOf(wrong: string, candidates: Iterable<string>): string {
  return `use one of: ${closest(wrong, candidates)}`;
}
