// @vitest-environment node
/**
 * The bench's reading of PostgreSQL's CPU (bench/support/postgres-server-cpu.ts), against scripted /proc readings:
 * a backend the pool closes during the measured logins must not take what the others spent with it.
 */
import { describe, expect, it } from 'vitest';
import { ticksDuring, type TicksByProcess } from '../../bench/support/postgres-server-cpu.ts';

const SAMPLE_MS = 5;
/** Long enough for the sampler to read at least once (its timer is due first). */
const sampled = () => new Promise((resolve) => setTimeout(resolve, 4 * SAMPLE_MS));

/** A reader answering whatever the work last set. */
function scripted(start: TicksByProcess | undefined) {
  let current = start;
  return { read: () => current, set: (next: TicksByProcess | undefined) => void (current = next) };
}

describe("the bench's PostgreSQL server CPU", () => {
  it('counts a backend that ends during the work by what it spent until it was last seen, never below zero', async () => {
    const proc = scripted(new Map([['10@1', 100], ['11@1', 50]]));
    const ticks = await ticksDuring(
      proc.read,
      async () => {
        proc.set(new Map([['10@1', 110], ['11@1', 80]]));
        await sampled();
        proc.set(new Map([['10@1', 120]])); // The pool closed backend 11.
        await sampled();
      },
      SAMPLE_MS,
    );
    // A sum of all processes before and after would say 120 - 150 = -30.
    expect(ticks).toBe(20 + 30);
  });

  it('counts a backend that starts during the work from zero, and a reused pid as another process', async () => {
    const proc = scripted(new Map([['10@1', 100]]));
    const ticks = await ticksDuring(
      proc.read,
      async () => {
        proc.set(new Map([['10@1', 104], ['12@7', 6]]));
        await sampled();
        proc.set(new Map([['10@1', 104], ['12@9', 3]])); // Pid 12 ended, and a new process took its number.
        await sampled();
      },
      SAMPLE_MS,
    );
    expect(ticks).toBe(4 + 6 + 3);
  });

  it('answers nothing rather than a guess when the processes cannot be read', async () => {
    const proc = scripted(new Map([['10@1', 100]]));
    const ticks = await ticksDuring(
      proc.read,
      async () => {
        proc.set(undefined);
        await sampled();
      },
      SAMPLE_MS,
    );
    expect(ticks).toBeUndefined();
  });
});
