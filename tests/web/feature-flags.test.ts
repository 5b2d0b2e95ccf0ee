/**
 * The feature-flag client: the service's list and single-flag calls, the 3 s timeout, the encrypted
 * and checksummed 30-minute cache, and the background refetch that follows a failure.
 */
import { webcrypto } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFlagCache } from '../../src/services/feature-flags/flag-cache.ts';
import { createFlagLoader } from '../../src/services/feature-flags/flag-loader.ts';
import { createFlagService } from '../../src/services/feature-flags/flag-service.ts';

const DEFAULTS = { 'company-selection-removal': true, 'test-flag': false };
const TTL = 30 * 60 * 1000;
const subtle = webcrypto.subtle as SubtleCrypto;

/** A storage backed by a Map, so a test can read and alter what the cache wrote. */
function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

const itemsBody = (flags: Record<string, boolean>, env = 'prod') => ({
  items: Object.entries(flags).map(([key, on]) => ({ key, environments: { [env]: { on } } })),
});

/** A fetch that answers with `body`, or never answers (until aborted) when `body` is 'hang'. */
function fakeFetch(body: unknown | 'hang', status = 200) {
  return vi.fn((_url: RequestInfo | URL, init?: RequestInit) => {
    if (body === 'hang') {
      return new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    }
    return Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
  });
}

let now = 1_700_000_000_000;
const clock = () => now;

beforeEach(() => {
  vi.useFakeTimers();
  now = 1_700_000_000_000;
});
afterEach(() => vi.useRealTimers());

describe('flag service', () => {
  it('asks for the sso project with the authorization header, mapping development to sit', async () => {
    const fetch = fakeFetch(itemsBody({ 'test-flag': true }, 'sit'));
    const service = createFlagService({ baseUrl: 'https://flags.example/', project: 'sso', environment: 'development', authorization: 'client-1', fetch });
    await expect(service.list(3000)).resolves.toEqual({ 'test-flag': true });
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('https://flags.example/flags/sso?env=sit');
    expect((init?.headers as Record<string, string>).Authorization).toBe('client-1');
  });

  it('reads one flag from the flag key path', async () => {
    const fetch = fakeFetch({ key: 'test-flag', environments: { prod: { on: true } } });
    const service = createFlagService({ baseUrl: '/flags-base', project: 'sso', environment: 'prod', authorization: 'x', fetch });
    await expect(service.one('test-flag', 3000)).resolves.toBe(true);
    expect(fetch.mock.calls[0]?.[0]).toBe('/flags-base/flags/sso/test-flag?env=prod');
  });

  it('rejects with "Request timeout" when the service has not answered after 3 s, asking only once', async () => {
    const fetch = fakeFetch('hang');
    const service = createFlagService({ baseUrl: '', project: 'sso', environment: 'prod', authorization: 'x', fetch });
    const listing = service.list(3000);
    const outcome = expect(listing).rejects.toThrow('Request timeout');
    await vi.advanceTimersByTimeAsync(3000);
    await outcome;
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('rejects with the HTTP status when the service refuses', async () => {
    const service = createFlagService({ baseUrl: '', project: 'sso', environment: 'prod', authorization: 'x', fetch: fakeFetch({}, 401) });
    await expect(service.list(3000)).rejects.toThrow('HTTP 401');
  });
});

describe('flag cache', () => {
  it('keeps flags for 30 minutes, encrypted: the stored entry does not show them', async () => {
    const storage = memoryStorage();
    const cache = createFlagCache({ storageKey: 'flags', ttlMs: TTL, now: clock, storage, subtle });
    await cache.write({ 'test-flag': true });
    expect(storage.items.get('flags')).not.toContain('test-flag');
    now += TTL - 1;
    await expect(cache.read()).resolves.toEqual({ 'test-flag': true });
    now += 1;
    await expect(cache.read()).resolves.toBeUndefined();
    expect(storage.items.has('flags')).toBe(false);
  });

  it('discards an entry whose ciphertext was altered', async () => {
    const storage = memoryStorage();
    const cache = createFlagCache({ storageKey: 'flags', ttlMs: TTL, now: clock, storage, subtle });
    await cache.write({ 'test-flag': true });
    const entry = JSON.parse(storage.items.get('flags') ?? '{}') as { data: string };
    const bytes = Uint8Array.from(atob(entry.data), (char) => char.charCodeAt(0));
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    storage.setItem('flags', JSON.stringify({ ...entry, data: btoa(String.fromCharCode(...bytes)) }));
    await expect(cache.read()).resolves.toBeUndefined();
    expect(storage.items.has('flags')).toBe(false);
  });

  it('discards an entry whose checksum does not match', async () => {
    const storage = memoryStorage();
    const cache = createFlagCache({ storageKey: 'flags', ttlMs: TTL, now: clock, storage, subtle });
    await cache.write({ 'test-flag': true });
    const entry = JSON.parse(storage.items.get('flags') ?? '{}') as { checksum: string };
    storage.setItem('flags', JSON.stringify({ ...entry, checksum: '0'.repeat(64) }));
    await expect(cache.read()).resolves.toBeUndefined();
    expect(storage.items.has('flags')).toBe(false);
  });
});

describe('flag loader', () => {
  const setup = (fetch: ReturnType<typeof fakeFetch>) => {
    const storage = memoryStorage();
    const cache = createFlagCache({ storageKey: 'flags', ttlMs: TTL, now: clock, storage, subtle });
    const service = createFlagService({ baseUrl: '', project: 'sso', environment: 'prod', authorization: 'x', fetch });
    const failures: string[] = [];
    const loader = createFlagLoader({ service, cache, defaults: DEFAULTS, timeoutMs: 3000, backgroundTimeoutMs: 30_000, onFailure: (m) => failures.push(m) });
    return { loader, cache, failures };
  };

  it('loads once: the service is asked a single time however often the flags are read', async () => {
    const fetch = fakeFetch(itemsBody({ 'test-flag': true }));
    const { loader } = setup(fetch);
    const [first, second] = await Promise.all([loader.load(), loader.load()]);
    expect(first).toEqual({ ...DEFAULTS, 'test-flag': true });
    expect(second).toBe(first);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('answers from the cache without asking the service', async () => {
    const fetch = fakeFetch(itemsBody({}));
    const { loader, cache } = setup(fetch);
    await cache.write({ ...DEFAULTS, 'test-flag': true });
    await expect(loader.load()).resolves.toEqual({ ...DEFAULTS, 'test-flag': true });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('applies the defaults after a timeout, then caches and announces what the background fetch brings', async () => {
    let answer: (response: Response) => void = () => undefined;
    const fetch = vi
      .fn()
      .mockImplementationOnce((_url: string, init: RequestInit) => new Promise((_r, reject) => init.signal?.addEventListener('abort', () => reject(new Error('aborted')))))
      .mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)));
    const { loader, cache, failures } = setup(fetch as unknown as ReturnType<typeof fakeFetch>);
    const announced: unknown[] = [];
    loader.subscribe((flags) => announced.push(flags));

    const loading = loader.load();
    await vi.advanceTimersByTimeAsync(3000);
    await expect(loading).resolves.toEqual(DEFAULTS);
    expect(failures).toEqual(['Request timeout']);
    expect(fetch).toHaveBeenCalledTimes(2);

    // The background fetch may take up to 30 s.
    await vi.advanceTimersByTimeAsync(20_000);
    answer(new Response(JSON.stringify(itemsBody({ 'company-selection-removal': false }))));
    await vi.waitFor(() => expect(announced).toHaveLength(1));
    expect(announced[0]).toEqual({ ...DEFAULTS, 'company-selection-removal': false });
    await expect(cache.read()).resolves.toEqual({ ...DEFAULTS, 'company-selection-removal': false });
  });

  it('gives the background fetch 30 s, then leaves the defaults in force', async () => {
    const { loader, failures } = setup(fakeFetch('hang'));
    const announced: unknown[] = [];
    loader.subscribe((flags) => announced.push(flags));
    const loading = loader.load();
    await vi.advanceTimersByTimeAsync(3000);
    await expect(loading).resolves.toEqual(DEFAULTS);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(failures).toEqual(['Request timeout', 'Request timeout']);
    expect(announced).toEqual([]);
  });

  it('reports a refresh failure only when the background fetch fails too', async () => {
    const storage = memoryStorage();
    const cache = createFlagCache({ storageKey: 'flags', ttlMs: TTL, now: clock, storage, subtle });
    const fetch = vi.fn().mockResolvedValueOnce(new Response('{}', { status: 503 })).mockResolvedValueOnce(new Response('{}', { status: 502 }));
    const service = createFlagService({ baseUrl: '', project: 'sso', environment: 'prod', authorization: 'x', fetch });
    const refreshFailures: string[] = [];
    const loader = createFlagLoader({ service, cache, defaults: DEFAULTS, timeoutMs: 3000, backgroundTimeoutMs: 30_000, onRefreshFailure: (m) => refreshFailures.push(m) });
    await expect(loader.load()).resolves.toEqual(DEFAULTS);
    await vi.waitFor(() => expect(refreshFailures).toEqual(['Flag service answered HTTP 502']));
  });
});
