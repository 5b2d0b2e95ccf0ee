/**
 * Client info for the "Signing in to {client}" line: GET clients/{client_id}, 3 s limit,
 * cached for 24 h in memory and local storage so each screen does not ask again.
 */
import { toApiError, type ApiClient } from './api-client.ts';
import { t } from './messages.ts';

/** What a failed client-info fetch says when the server gave no message of its own (spec section 8). */
export const CLIENT_INFO_FAILURE = 'Failed to fetch client information';

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

/**
 * GET clients/{client_id} within `timeoutMs`. A failure is thrown with the server's own message,
 * or CLIENT_INFO_FAILURE when the server sent none (a timeout, a network failure, a bare status).
 */
export async function fetchClientInfo(api: ApiClient, clientId: string, timeoutMs: number): Promise<Partial<ClientInfo>> {
  try {
    return await api.request<Partial<ClientInfo>>({ method: 'GET', path: `clients/${encodeURIComponent(clientId)}`, timeoutMs });
  } catch (error) {
    const failure = toApiError(error);
    const fromServer = failure.status !== undefined && failure.message !== t('apiError.server.error');
    throw new Error(fromServer ? failure.message : CLIENT_INFO_FAILURE, { cause: error });
  }
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
      const info = await fetchClientInfo(api, clientId, options.timeoutMs);
      const name = clientDisplayName(info);
      remember(clientId, name);
      return name;
    } catch (error) {
      console.warn(`Client name lookup for ${clientId} failed:`, error instanceof Error ? error.message : error);
      return undefined;
    }
  };
}
