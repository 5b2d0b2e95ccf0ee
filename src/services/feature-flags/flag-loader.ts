/**
 * Loads the feature flags once (spec, sections 4, 8 and 9): the cache if it holds a valid entry, else
 * the service within 3 s. When that fails the defaults apply at once, and one background fetch with a
 * 30 s limit follows; its result is cached and announced to subscribers.
 */
import type { Flags } from '../../../contract/conditions.ts';
import type { FlagCache } from './flag-cache.ts';
import type { FlagService } from './flag-service.ts';

/** What the loader needs. */
export interface FlagLoaderOptions {
  service: FlagService;
  cache: FlagCache;
  defaults: Flags;
  timeoutMs: number;
  backgroundTimeoutMs: number;
  /** Told about a failed fetch (the message is "Request timeout" or the HTTP status); never a secret. */
  onFailure?: (message: string) => void;
  /** Told when the background fetch failed too, so the defaults stay in force for this page. */
  onRefreshFailure?: (message: string) => void;
}

/** The flags in force, loaded once. */
export interface FlagLoader {
  /** The flags: the same promise on every call, so the service is asked once per page. */
  load(): Promise<Flags>;
  /** Called with the flags a background fetch brought, after they were cached; returns the unsubscribe. */
  subscribe(listener: (flags: Flags) => void): () => void;
}

/** Creates the loader. */
export function createFlagLoader(options: FlagLoaderOptions): FlagLoader {
  const listeners = new Set<(flags: Flags) => void>();
  const withDefaults = (fetched: Flags): Flags => ({ ...options.defaults, ...fetched });
  const reportFailure = (error: unknown) => options.onFailure?.(error instanceof Error ? error.message : String(error));

  const fetchAndCache = async (timeoutMs: number): Promise<Flags> => {
    const flags = withDefaults(await options.service.list(timeoutMs));
    await options.cache.write(flags);
    return flags;
  };

  const refetchInBackground = () => {
    fetchAndCache(options.backgroundTimeoutMs).then(
      (flags) => {
        for (const listener of listeners) listener(flags);
      },
      (error: unknown) => {
        reportFailure(error);
        options.onRefreshFailure?.(error instanceof Error ? error.message : String(error));
      },
    );
  };

  let loading: Promise<Flags> | undefined;
  const loadOnce = async (): Promise<Flags> => {
    const cached = await options.cache.read();
    if (cached) return withDefaults(cached);
    try {
      return await fetchAndCache(options.timeoutMs);
    } catch (error) {
      reportFailure(error);
      refetchInBackground();
      return { ...options.defaults };
    }
  };

  return {
    load: () => (loading ??= loadOnce()),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
