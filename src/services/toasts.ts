/**
 * Toasts (spec, sections 3, 4 and 9): a toast is queued, becomes active when a place on screen is free
 * (the queue is polled every 250 ms while anything waits), and is closed on timeout, click or clear.
 * Hovering pauses its timer; leaving resumes it with the time it had left. UI-free: views subscribe.
 */

export type ToastType = 'info' | 'warning' | 'success' | 'error';
export type ToastPosition = 'top' | 'top-left' | 'top-right' | 'bottom' | 'bottom-left' | 'bottom-right';
export type ToastState = 'queued' | 'active' | 'closed';

/** What a caller asks to show. */
export interface ToastRequest {
  type: ToastType;
  title: string;
  text?: string;
  position?: ToastPosition;
  /** Milliseconds on screen; the default is 4 s. */
  durationMs?: number;
}

/** A toast as views see it. */
export interface Toast extends Required<Omit<ToastRequest, 'text'>> {
  id: number;
  text?: string;
  state: Exclude<ToastState, 'closed'>;
  paused: boolean;
}

/** Timing settings. */
export interface ToastOptions {
  defaultDurationMs: number;
  pollMs: number;
  /** How many toasts may be on screen at once; the rest wait in the queue. */
  maxActive: number;
}

/** The toast queue. */
export interface ToastQueue {
  show(request: ToastRequest): number;
  /** Closes one toast (a click), whether queued or active. */
  close(id: number): void;
  /** Closes every toast. */
  clear(): void;
  pause(id: number): void;
  resume(id: number): void;
  /** Where a toast is in its life: queued, active, or closed (also for an id never issued). */
  stateOf(id: number): ToastState;
  /** The toasts not yet closed, oldest first. */
  list(): readonly Toast[];
  /** Called after every change; returns the unsubscribe. */
  subscribe(listener: (toasts: readonly Toast[]) => void): () => void;
}

interface Running {
  timer?: ReturnType<typeof setTimeout>;
  /** When the current timer was started, and the time left when it was. */
  startedAt: number;
  leftMs: number;
}

/** Creates a toast queue; its clock is read at each call, so a clock swapped in later (a test's fake one) counts. */
export function createToastQueue(options: ToastOptions, now: () => number = () => Date.now()): ToastQueue {
  let toasts: Toast[] = [];
  let nextId = 1;
  let poll: ReturnType<typeof setInterval> | undefined;
  const running = new Map<number, Running>();
  const listeners = new Set<(toasts: readonly Toast[]) => void>();

  const publish = () => {
    for (const listener of listeners) listener(toasts);
  };
  const update = (id: number, change: Partial<Toast>) => {
    toasts = toasts.map((toast) => (toast.id === id ? { ...toast, ...change } : toast));
  };
  const startTimer = (id: number, leftMs: number) => {
    running.set(id, { startedAt: now(), leftMs, timer: setTimeout(() => close(id), leftMs) });
  };

  const promote = () => {
    const active = toasts.filter((toast) => toast.state === 'active').length;
    const waiting = toasts.filter((toast) => toast.state === 'queued').slice(0, Math.max(0, options.maxActive - active));
    for (const toast of waiting) {
      update(toast.id, { state: 'active' });
      startTimer(toast.id, toast.durationMs);
    }
    const stillQueued = toasts.some((toast) => toast.state === 'queued');
    if (stillQueued && poll === undefined) poll = setInterval(promote, options.pollMs);
    if (!stillQueued && poll !== undefined) {
      clearInterval(poll);
      poll = undefined;
    }
    if (waiting.length > 0) publish();
  };

  function close(id: number): void {
    const timer = running.get(id)?.timer;
    if (timer !== undefined) clearTimeout(timer);
    running.delete(id);
    if (!toasts.some((toast) => toast.id === id)) return;
    // Closed toasts leave the list: views animate them out by absence.
    toasts = toasts.filter((toast) => toast.id !== id);
    publish();
  }

  return {
    show(request) {
      const id = nextId++;
      toasts = [
        ...toasts,
        { id, type: request.type, title: request.title, text: request.text, position: request.position ?? 'top-right', durationMs: request.durationMs ?? options.defaultDurationMs, state: 'queued', paused: false },
      ];
      publish();
      promote();
      return id;
    },
    close,
    clear() {
      for (const toast of toasts) close(toast.id);
      promote();
    },
    pause(id) {
      const run = running.get(id);
      if (!run?.timer) return;
      clearTimeout(run.timer);
      running.set(id, { startedAt: run.startedAt, leftMs: Math.max(0, run.leftMs - (now() - run.startedAt)) });
      update(id, { paused: true });
      publish();
    },
    resume(id) {
      const run = running.get(id);
      if (!run || run.timer) return;
      startTimer(id, run.leftMs);
      update(id, { paused: false });
      publish();
    },
    stateOf: (id) => toasts.find((toast) => toast.id === id)?.state ?? 'closed',
    list: () => toasts,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
