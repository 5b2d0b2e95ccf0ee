/** flows:check problems as the studio shows them: where, what is wrong, and the fix. */
import type { StudioProblem } from './studio-types.ts';

/** A list of problems, each with its fix. */
export function ProblemList({ problems }: { problems: readonly StudioProblem[] }) {
  return (
    <ul className="studio-problems">
      {problems.map((problem) => (
        <li key={`${problem.file}:${problem.path}:${problem.message}`} className="studio-problem">
          <code>
            {problem.file}:{problem.path}
          </code>
          <p className="studio-problem-message">{problem.message}</p>
          <p className="studio-problem-fix">
            <strong>Fix:</strong> {problem.fix}
          </p>
        </li>
      ))}
    </ul>
  );
}
