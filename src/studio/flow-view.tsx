/**
 * One flow in the studio: its description, flows:check problems of the file, its diagram (a step's box opens the
 * step), "Walk this flow" (the real server, screen by screen) and "Replay fixtures" (which pass, where one diverges).
 */
import { useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { ProblemList } from './problem-list.tsx';
import type { StudioFlow, StudioReplay, StudioWalk } from './studio-types.ts';

type Run<T> = { running: true } | { running: false; result: T } | undefined;

/** POSTs to a studio run and answers its JSON. */
async function runOnServer<T>(path: string): Promise<T> {
  const response = await fetch(path, { method: 'POST' });
  return (await response.json()) as T;
}

/** The step id of the diagram box an event happened in. */
function stepOfEvent(target: EventTarget | null): string | undefined {
  const node = target instanceof Element ? target.closest('g.node') : null;
  return node?.id.startsWith('step-') ? node.id.slice('step-'.length) : undefined;
}

function WalkResult({ walk }: { walk: StudioWalk }) {
  return (
    <section className="studio-walk" aria-label="Walk">
      <h3>
        Walk: {walk.flow}/{walk.walk} ({walk.screens.length} screens)
      </h3>
      {walk.error ? <p className="studio-run-error" role="alert">The walk stopped: {walk.error}</p> : null}
      <ol className="studio-screens">
        {walk.screens.map((screen, index) => (
          <li key={index} className="studio-screen">
            <p>
              <strong>{screen.headline || screen.title}</strong> <code>{screen.url}</code>
            </p>
            <img src={screen.image} alt={`Screen ${index + 1}: ${screen.headline || screen.title}`} />
            <p className="studio-screen-did">{screen.did}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

function ReplayResult({ replay }: { replay: StudioReplay }) {
  return (
    <section className="studio-replay" aria-label="Replay">
      <h3>Replay of {replay.flow}'s fixtures</h3>
      {replay.error ? <p className="studio-run-error" role="alert">{replay.error}</p> : null}
      <ul>
        {replay.lines.map((line) => (
          <li key={line.fixture} className={line.passed ? 'studio-pass' : line.skipped ? 'studio-skip' : 'studio-fail'}>
            {line.text}
          </li>
        ))}
      </ul>
      {replay.report ? (
        <a href={replay.report} target="_blank" rel="noreferrer">
          Open the replay report (recorded beside now)
        </a>
      ) : null}
    </section>
  );
}

/** The flow's part of the studio; `children` (the open step) shows above the diagram. */
export function FlowView({ flow, onOpenStep, children }: { flow: StudioFlow; onOpenStep: (id: string) => void; children?: ReactNode }) {
  const [walk, setWalk] = useState<Run<StudioWalk>>();
  const [replay, setReplay] = useState<Run<StudioReplay>>();
  const open = (event: MouseEvent | KeyboardEvent) => {
    const id = stepOfEvent(event.target);
    if (id && flow.steps.some((step) => step.id === id)) onOpenStep(id);
  };
  const startWalk = () => {
    setWalk({ running: true });
    void runOnServer<StudioWalk>(`/__studio/walk?flow=${encodeURIComponent(flow.id)}`).then(
      (result) => setWalk({ running: false, result }),
      (error: unknown) => setWalk({ running: false, result: { flow: flow.id, walk: '', screens: [], error: String(error) } }),
    );
  };
  const startReplay = () => {
    setReplay({ running: true });
    void runOnServer<StudioReplay>(`/__studio/replay?flow=${encodeURIComponent(flow.id)}`).then(
      (result) => setReplay({ running: false, result }),
      (error: unknown) => setReplay({ running: false, result: { flow: flow.id, lines: [], error: String(error) } }),
    );
  };
  return (
    <section className="studio-flow" aria-label={`Flow ${flow.id}`}>
      <h2>
        Flow {flow.id} <code>{flow.file}</code>
      </h2>
      <p>{flow.description}</p>
      {flow.problems.length > 0 ? <ProblemList problems={flow.problems} /> : null}
      <div className="studio-actions">
        <button type="button" onClick={startWalk} disabled={walk?.running === true || flow.walks.length === 0} title={flow.walks.length === 0 ? 'No walk script in tests/fixtures/walks/' : undefined}>
          {walk?.running ? 'Walking…' : 'Walk this flow'}
        </button>
        <button type="button" onClick={startReplay} disabled={replay?.running === true || flow.fixtures.length === 0} title={flow.fixtures.length === 0 ? 'No fixtures in tests/fixtures/flows/' : undefined}>
          {replay?.running ? 'Replaying…' : `Replay fixtures (${flow.fixtures.length})`}
        </button>
      </div>
      {children}
      <div
        className="studio-diagram"
        role="group"
        aria-label={`Diagram of ${flow.id}: press a step to open it`}
        onClick={open}
        onKeyDown={(event) => event.key === 'Enter' && open(event)}
        dangerouslySetInnerHTML={{ __html: flow.diagram }}
      />
      {walk && !walk.running ? <WalkResult walk={walk.result} /> : null}
      {replay && !replay.running ? <ReplayResult replay={replay.result} /> : null}
    </section>
  );
}
