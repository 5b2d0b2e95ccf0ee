/**
 * The studio's state from its dev server, read again whenever the server says a flow, schema or word file changed,
 * and the selection (flow, step), kept in the page's address so a reload opens the same step.
 */
import { useCallback, useEffect, useState } from 'react';
import { STUDIO_CHANGED_EVENT, type StudioState } from './studio-types.ts';

/** The state, or why it could not be read. */
export interface LoadedState {
  state?: StudioState;
  error?: string;
}

/** Reads /__studio/state now and after every change the dev server announces. */
export function useStudioState(): LoadedState {
  const [loaded, setLoaded] = useState<LoadedState>({});
  const read = useCallback(() => {
    fetch('/__studio/state', { cache: 'no-store' })
      .then(async (response) => {
        const body = (await response.json()) as StudioState & { error?: string };
        setLoaded(response.ok ? { state: body } : { error: body.error ?? `the studio answered ${response.status}` });
      })
      .catch((error: unknown) => setLoaded({ error: error instanceof Error ? error.message : String(error) }));
  }, []);
  useEffect(() => {
    read();
    import.meta.hot?.on(STUDIO_CHANGED_EVENT, read);
    return () => import.meta.hot?.off(STUDIO_CHANGED_EVENT, read);
  }, [read]);
  return loaded;
}

/** The flow and step the page shows. */
export interface Selection {
  flow?: string;
  step?: string;
}

function readSelection(): Selection {
  const query = new URLSearchParams(window.location.search);
  return { flow: query.get('flow') ?? undefined, step: query.get('step') ?? undefined };
}

/** The selection, kept in the address (?flow=…&step=…). */
export function useSelection(): [Selection, (next: Selection) => void] {
  const [selection, setSelection] = useState<Selection>(readSelection);
  const select = useCallback((next: Selection) => {
    const query = new URLSearchParams();
    if (next.flow) query.set('flow', next.flow);
    if (next.step) query.set('step', next.step);
    window.history.replaceState(null, '', `${window.location.pathname}?${query.toString()}`);
    setSelection(next);
  }, []);
  return [selection, select];
}
