// @vitest-environment node
/**
 * API observers (the fixture recorder's hook): each sees every request as it starts and then its
 * outcome, and none of them can change or break the request, its error message or the loading flag.
 */
import { describe, expect, it, vi } from 'vitest';
import { createApiClient, createApiObservers, type ApiOutcome, type ApiRequest } from '../../src/services/api-client.ts';
import { createLoadingFlag } from '../../src/services/loading.ts';

/** A client over a fetch answering `status` and `body` (or failing, for `network`), with one recording observer. */
function observedClient(answer: { status: number; body: unknown } | 'network') {
  const observers = createApiObservers();
  const seen: Array<{ request: ApiRequest; outcome?: ApiOutcome }> = [];
  observers.add((request) => {
    const entry: { request: ApiRequest; outcome?: ApiOutcome } = { request };
    seen.push(entry);
    return (outcome) => (entry.outcome = outcome);
  });
  const fetch = vi.fn(async () => {
    if (answer === 'network') throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify(answer.body), { status: answer.status });
  });
  const loading = createLoadingFlag();
  return { client: createApiClient({ fetch, observers, loading }), observers, seen, loading };
}

const LOGIN: ApiRequest = { method: 'POST', path: 'auth/login', body: { email: 'a@b.co', password: 'eyJ.jwe' } };

describe('API observers', () => {
  it.each<[string, { status: number; body: unknown } | 'network', ApiOutcome]>([
    ['an answer', { status: 200, body: { redirect_to: '/next' } }, { status: 200, body: { redirect_to: '/next' } }],
    ['an error answer', { status: 401, body: { error_code: 'auth.invalid_credentials', error_message: 'Incorrect email or password.' } }, { status: 401, body: { error_code: 'auth.invalid_credentials', error_message: 'Incorrect email or password.' } }],
    ['a network failure', 'network', {}],
  ])('see the request as sent and then %s', async (_label, answer, outcome) => {
    const { client, seen } = observedClient(answer);
    await client.request(LOGIN).catch(() => undefined);
    expect(seen).toEqual([{ request: LOGIN, outcome }]);
  });

  it('see a request start before its answer arrives', async () => {
    const { client, seen } = observedClient({ status: 200, body: {} });
    const pending = client.request({ method: 'GET', path: 'authorize' });
    expect(seen).toEqual([{ request: { method: 'GET', path: 'authorize' } }]);
    await pending;
    expect(seen[0]?.outcome).toEqual({ status: 200, body: {} });
  });

  it('cannot break the request, its message or the loading flag by throwing', async () => {
    const { client, observers, loading } = observedClient({ status: 401, body: { error_message: 'Incorrect email or password.' } });
    observers.add(() => {
      throw new Error('observer failed at start');
    });
    observers.add(() => () => {
      throw new Error('observer failed at the end');
    });
    await expect(client.request(LOGIN)).rejects.toMatchObject({ name: 'ApiError', message: 'Incorrect email or password.', status: 401 });
    expect(loading.get()).toBe(false);
  });

  it('stop seeing requests once removed', async () => {
    const { client, observers } = observedClient({ status: 200, body: {} });
    const late = vi.fn();
    const remove = observers.add(late);
    remove();
    await client.request({ method: 'GET', path: 'authorize' });
    expect(late).not.toHaveBeenCalled();
  });
});
