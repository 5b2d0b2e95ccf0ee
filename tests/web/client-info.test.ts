// @vitest-environment node
/**
 * The client-name lookup behind "Signing in to {client}": name fallbacks, the 24 h cache in
 * memory and storage, and a quiet failure.
 */
import { describe, expect, it, vi } from 'vitest';
import { ApiError, type ApiClient, type ApiRequest } from '../../src/services/api-client.ts';
import { CLIENT_INFO_FAILURE, clientDisplayName, createClientNameLookup, fetchClientInfo } from '../../src/services/client-info.ts';

const DAY = 24 * 60 * 60 * 1000;

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> {
  const items = new Map<string, string>();
  return { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
}

function apiAnswering(answer: unknown): ApiClient & { requests: ApiRequest[] } {
  const requests: ApiRequest[] = [];
  return {
    requests,
    async request<T>(request: ApiRequest): Promise<T> {
      requests.push(request);
      if (answer instanceof Error) throw answer;
      return answer as T;
    },
  };
}

const options = (now: () => number, storage = memoryStorage()) => ({ timeoutMs: 3000, cacheTtlMs: DAY, storageKey: 'k', now, storage });

describe('clientDisplayName', () => {
  it.each([
    [{ name: 'Portal', client_name: 'portal-app' }, 'Portal'],
    [{ client_name: 'portal-app' }, 'portal-app'],
    [{}, 'Unknown Client'],
  ])('shows %o as %s', (info, expected) => {
    expect(clientDisplayName(info)).toBe(expected);
  });
});

describe('createClientNameLookup', () => {
  it('asks clients/{client_id} with the 3 s timeout', async () => {
    const api = apiAnswering({ client_id: 'c 1', name: 'Portal' });
    expect(await createClientNameLookup(api, options(() => 0))('c 1')).toBe('Portal');
    expect(api.requests).toEqual([{ method: 'GET', path: 'clients/c%201', timeoutMs: 3000 }]);
  });

  it('answers from the cache for 24 hours, across page loads via storage', async () => {
    let now = 0;
    const storage = memoryStorage();
    const api = apiAnswering({ client_id: 'c1', name: 'Portal' });
    await createClientNameLookup(api, options(() => now, storage))('c1');
    now = DAY - 1;
    expect(await createClientNameLookup(api, options(() => now, storage))('c1')).toBe('Portal');
    expect(api.requests).toHaveLength(1);
    now = DAY + 1;
    await createClientNameLookup(api, options(() => now, storage))('c1');
    expect(api.requests).toHaveLength(2);
  });

  it('returns nothing and logs a warning when the lookup fails', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const lookup = createClientNameLookup(apiAnswering(new ApiError('Request timeout')), options(() => 0));
    expect(await lookup('c1')).toBeUndefined();
    expect(warn).toHaveBeenCalled();
  });
});

describe('fetchClientInfo', () => {
  it("throws the server's own message when the server sent one", async () => {
    const api = apiAnswering(new ApiError('This client is disabled', 403, 'client.disabled'));
    await expect(fetchClientInfo(api, 'c1', 3000)).rejects.toThrow('This client is disabled');
  });

  it.each([
    ['a timeout', new ApiError('The operation was aborted due to timeout')],
    ['a network failure', new ApiError('Failed to fetch')],
  ])('throws "Failed to fetch client information" after %s, where no server answered', async (_name, failure) => {
    await expect(fetchClientInfo(apiAnswering(failure), 'c1', 3000)).rejects.toThrow(CLIENT_INFO_FAILURE);
    expect(CLIENT_INFO_FAILURE).toBe('Failed to fetch client information');
  });

  it('logs the reason with the warning when the name lookup fails', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await createClientNameLookup(apiAnswering(new ApiError('Request timeout')), options(() => 0))('c1');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('c1'), CLIENT_INFO_FAILURE);
  });
});
