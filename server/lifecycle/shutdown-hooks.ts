/**
 * What a server process does on its way out, after it stopped taking requests and before its database closes:
 * background workers (cleanup, the outbox sender, key and flag refreshers) register here when they start, and each
 * gets a bounded time to stop or flush. Hooks run in reverse order of registration, so a worker started after
 * another (and perhaps feeding it) stops first.
 */
export type ShutdownHook = () => Promise<void> | void;

export interface ShutdownHooks {
  /** Adds a hook; `name` appears in the log when the hook fails or overruns. */
  register(name: string, hook: ShutdownHook): void;
  /** Runs every hook once, newest first, each within `timeoutMs`; returns the names of those that failed or overran. */
  run(timeoutMs: number): Promise<string[]>;
}

export interface ShutdownLog {
  warn(details: object, message: string): void;
}

const TIMED_OUT = Symbol('timed out');

export function createShutdownHooks(log: ShutdownLog): ShutdownHooks {
  const hooks: { name: string; hook: ShutdownHook }[] = [];
  let ran = false;
  return {
    register(name, hook) {
      hooks.push({ name, hook });
    },
    async run(timeoutMs) {
      if (ran) return [];
      ran = true;
      const failed: string[] = [];
      for (const { name, hook } of [...hooks].reverse()) {
        let timer: NodeJS.Timeout | undefined;
        const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
          timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs);
        });
        try {
          const outcome = await Promise.race([Promise.resolve().then(hook), deadline]);
          if (outcome === TIMED_OUT) {
            failed.push(name);
            log.warn({ hook: name, timeoutMs }, 'shutdown hook did not finish in time');
          }
        } catch (error) {
          failed.push(name);
          log.warn({ hook: name, err: { message: error instanceof Error ? error.message : String(error) } }, 'shutdown hook failed');
        } finally {
          clearTimeout(timer);
        }
      }
      return failed;
    },
  };
}
