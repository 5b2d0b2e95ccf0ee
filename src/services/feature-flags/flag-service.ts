/**
 * The LaunchDarkly-style flag service (spec, section 7): `GET {base}/flags/{project}?env=…` lists every
 * flag as `items: [{ key, environments: { <env>: { on } } }]`; `GET …/{flagKey}` reads one. One attempt
 * per call, no retries: a caller that needs more decides when to ask again.
 */
import type { Flags } from '../../../contract/conditions.ts';

/** Where the service lives and who is asking. */
export interface FlagServiceOptions {
  baseUrl: string;
  project: string;
  /** The app's environment; `development` is asked for as `sit`, the service's name for it. */
  environment: string;
  /** Sent as the authorization header. */
  authorization: string;
  fetch?: typeof fetch;
}

/** Reads flags from the service. */
export interface FlagService {
  /** Every flag of the project; rejects with "Request timeout" after `timeoutMs`, or with the HTTP status. */
  list(timeoutMs: number): Promise<Flags>;
  /** One flag's value; undefined when the service does not know it in this environment. */
  one(key: string, timeoutMs: number): Promise<boolean | undefined>;
}

interface FlagItem {
  key?: unknown;
  environments?: Record<string, { on?: unknown } | undefined>;
}

/** The service's name for an app environment. */
function serviceEnvironment(environment: string): string {
  return environment === 'development' ? 'sit' : environment;
}

/** A flag item's value in `environment`, if it has a boolean one. */
function itemValue(item: FlagItem, environment: string): boolean | undefined {
  const on = item.environments?.[environment]?.on;
  return typeof on === 'boolean' ? on : undefined;
}

/** Creates a client for the flag service. */
export function createFlagService(options: FlagServiceOptions): FlagService {
  const environment = serviceEnvironment(options.environment);
  const base = `${options.baseUrl.replace(/\/$/, '')}/flags/${encodeURIComponent(options.project)}`;

  const get = async (path: string, timeoutMs: number): Promise<unknown> => {
    const fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      const response = await fetchImpl(`${base}${path}?env=${encodeURIComponent(environment)}`, {
        headers: { Accept: 'application/json', Authorization: options.authorization },
        signal: controller.signal,
      });
      if (!response.ok) throw new Error(`Flag service answered HTTP ${response.status}`);
      return await response.json();
    } catch (error) {
      throw timedOut ? new Error('Request timeout') : error;
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    async list(timeoutMs) {
      const body = (await get('', timeoutMs)) as { items?: unknown } | null;
      if (!Array.isArray(body?.items)) throw new Error('Flag service answered without an items list');
      const flags: Record<string, boolean> = {};
      for (const item of body.items as FlagItem[]) {
        const value = itemValue(item, environment);
        if (typeof item.key === 'string' && value !== undefined) flags[item.key] = value;
      }
      return flags;
    },
    async one(key, timeoutMs) {
      return itemValue((await get(`/${encodeURIComponent(key)}`, timeoutMs)) as FlagItem, environment);
    },
  };
}
