/**
 * A bounded queue in front of argon2id. Each verification holds ~19 MiB and a libuv thread for tens of
 * milliseconds, so a flood of sign-ins must not pile up without end: at most `concurrency` run at once, at most
 * `maxWaiting` wait, and any more are refused at once (answered 503 with Retry-After) instead of queueing.
 */
export class Argon2QueueFullError extends Error {
  override readonly name = 'Argon2QueueFullError';
}

export interface Argon2Gate {
  /** Runs `work` when a slot is free; throws Argon2QueueFullError when the queue is already full. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Hashes waiting for a slot now. */
  waiting(): number;
  /** Hashes running now. */
  running(): number;
  /** The most that ever waited at once (for tests and the overload metric). */
  peakWaiting(): number;
}

export function createArgon2Gate(limits: { concurrency: number; maxWaiting: number }): Argon2Gate {
  let active = 0;
  let peak = 0;
  const queue: (() => void)[] = [];

  const release = () => {
    const next = queue.shift();
    if (next) next();
    else active -= 1;
  };

  return {
    async run(work) {
      if (active >= limits.concurrency) {
        if (queue.length >= limits.maxWaiting) throw new Argon2QueueFullError('too many password checks are waiting');
        const turn = new Promise<void>((resolve) => queue.push(resolve));
        peak = Math.max(peak, queue.length);
        await turn;
      } else {
        active += 1;
      }
      try {
        return await work();
      } finally {
        release();
      }
    },
    waiting: () => queue.length,
    running: () => active,
    peakWaiting: () => peak,
  };
}
