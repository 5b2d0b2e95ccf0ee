/**
 * The shared loading flag: on while any request is in flight. React-free so the API client can
 * drive it; src/state/loading-atom.ts mirrors it into jotai for the views.
 */

/** A boolean that turns on at each request start and off once every started request has answered. */
export interface LoadingFlag {
  get(): boolean;
  /** A request started. */
  start(): void;
  /** A request answered, successfully or not. */
  finish(): void;
  /** Calls `listener` on every change; returns the unsubscribe function. */
  subscribe(listener: (on: boolean) => void): () => void;
}

/** Creates a loading flag; a count, not a boolean, so overlapping requests do not switch it off early. */
export function createLoadingFlag(): LoadingFlag {
  let pending = 0;
  const listeners = new Set<(on: boolean) => void>();
  const change = (delta: number): void => {
    const before = pending > 0;
    pending = Math.max(0, pending + delta);
    const after = pending > 0;
    if (before !== after) for (const listener of listeners) listener(after);
  };
  return {
    get: () => pending > 0,
    start: () => change(1),
    finish: () => change(-1),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The app-wide loading flag. */
export const loadingFlag: LoadingFlag = createLoadingFlag();
