/**
 * Client info for the "Signing in to {client}" line: GET clients/{client_id}, 3 s limit,
 * cached for 24 h in memory and local storage so each screen does not ask again.
 */
import type { ApiClient } from './api-client.ts';
import { t } from './messages.ts';

/** What the server says about a client app. */
export interface ClientInfo {
  client_id: string;
  name?: string;
  client_name?: string;
}

/** Cache and timing settings for the lookup. */
export interface ClientInfoOptions {
  timeoutMs: number;
  cacheTtlMs: number;
  storageKey: string;
  now?: () => number;
  storage?: Pick<Storage, 'getItem' | 'setItem'>;
}

interface CacheEntry {
  name: string;
  expires: number;
}

/** The name to show for a client: its name, else client_name, else the unknown-client wording. */
export function clientDisplayName(info: Partial<ClientInfo>): string {
  return info.name || info.client_name || t('app.unknownClient');
}

/** Creates a cached client-name lookup; resolves undefined (and warns) when the lookup fails. */
export function createClientNameLookup(api: ApiClient, options: ClientInfoOptions): (clientId: string) => Promise<string | undefined> {
  const now = options.now ?? Date.now;
  const memory = new Map<string, CacheEntry>();
  const storage = options.storage ?? (typeof localStorage === 'undefined' ? undefined : localStorage);

  const readStored = (): Record<string, CacheEntry> => {
    try {
      const parsed: unknown = JSON.parse(storage?.getItem(options.storageKey) ?? '{}');
      return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, CacheEntry>) : {};
    } catch {
      return {};
    }
  };

  const cached = (clientId: string): string | undefined => {
    const entry = memory.get(clientId) ?? readStored()[clientId];
    return entry && entry.expires > now() ? entry.name : undefined;
  };

  const remember = (clientId: string, name: string): void => {
    const entry = { name, expires: now() + options.cacheTtlMs };
    memory.set(clientId, entry);
    try {
      storage?.setItem(options.storageKey, JSON.stringify({ ...readStored(), [clientId]: entry }));
    } catch {
      // Private mode or a full quota only costs a repeat lookup.
    }
  };

  return async (clientId) => {
    const hit = cached(clientId);
    if (hit) return hit;
    try {
      const path = `clients/${encodeURIComponent(clientId)}`;
      const info = await api.request<Partial<ClientInfo>>({ method: 'GET', path, timeoutMs: options.timeoutMs });
      const name = clientDisplayName(info);
      remember(clientId, name);
      return name;
    } catch (error) {
      console.warn('Failed to fetch client information', error);
      return undefined;
    }
  };
}
