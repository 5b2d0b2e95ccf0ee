/**
 * The flow studio: every flow and its steps on the left (a step with flows:check problems is marked), the chosen flow
 * (diagram, walk, replay) and the chosen step (rendered in every language at desktop and phone width) on the right.
 */
import { ProblemList } from './problem-list.tsx';
import { FlowView } from './flow-view.tsx';
import { StepPanel } from './step-panel.tsx';
import { useSelection, useStudioState } from './use-studio-state.ts';

/** The whole studio page. */
export function StudioApp() {
  const { state, error } = useStudioState();
  const [selection, select] = useSelection();
  if (!state) {
    return <p className="studio-loading" role={error ? 'alert' : 'status'}>{error ? `The studio could not read the flows: ${error}` : 'Reading the flows…'}</p>;
  }
  const flow = state.flows.find((candidate) => candidate.id === selection.flow) ?? state.flows[0];
  const step = flow?.steps.find((candidate) => candidate.id === selection.step);
  const problemCount = state.flows.reduce((total, each) => total + each.problems.length + each.steps.reduce((sum, one) => sum + one.problems.length, 0), state.otherProblems.length);
  return (
    <div className="studio">
      <nav className="studio-nav" aria-label="Flows and steps">
        <h1>Flow studio</h1>
        <p className={problemCount > 0 ? 'studio-count studio-count-bad' : 'studio-count'} role="status">
          {problemCount === 0 ? 'flows:check: no problems' : `flows:check: ${problemCount} problem${problemCount === 1 ? '' : 's'}`}
        </p>
        {state.flows.map((each) => (
          <section key={each.id} className="studio-nav-flow">
            <button type="button" className={each.id === flow?.id && !step ? 'studio-nav-item current' : 'studio-nav-item'} onClick={() => select({ flow: each.id })}>
              {each.id}
            </button>
            <ul>
              {each.steps.map((one) => (
                <li key={one.id}>
                  <button
                    type="button"
                    className={one.id === step?.id ? 'studio-nav-step current' : 'studio-nav-step'}
                    aria-current={one.id === step?.id ? 'page' : undefined}
                    onClick={() => select({ flow: each.id, step: one.id })}
                  >
                    {one.id}
                    {one.problems.length > 0 ? <span className="studio-badge" aria-label={`${one.problems.length} problems`}>{one.problems.length}</span> : null}
                  </button>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </nav>
      <main className="studio-main">
        {state.otherProblems.length > 0 ? (
          <section aria-label="Problems of other files">
            <h2>Problems of other files</h2>
            <ProblemList problems={state.otherProblems} />
          </section>
        ) : null}
        {flow ? (
          <FlowView flow={flow} onOpenStep={(id) => select({ flow: flow.id, step: id })}>
            {step ? <StepPanel key={step.id} step={step} languages={state.languages} onOpenStep={(id) => select({ flow: flow.id, step: id })} /> : null}
          </FlowView>
        ) : (
          <p>No flow files in flows/.</p>
        )}
      </main>
    </div>
  );
}
