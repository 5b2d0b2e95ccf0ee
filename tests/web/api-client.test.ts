// @vitest-environment node
/**
 * The API client: the Accept header, the shared loading flag on every outcome, the shared error
 * handler, and the spec's order for picking the message out of a failure.
 */
import { describe, expect, it, vi } from 'vitest';
import { ACCEPT_HEADER, ApiError, createApiClient, extractErrorMessage } from '../../src/services/api-client.ts';
import { createLoadingFlag } from '../../src/services/loading.ts';

const GENERIC = 'Something went wrong on our side, sorry and please try again';

/** A fetch answering every call with `status` and `body`, recording what it was asked. */
function fakeFetch(status: number, body: unknown) {
  return vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
    new Response(typeof body === 'string' ? body : JSON.stringify(body), { status }),
  );
}

describe('createApiClient', () => {
  it('sends the JSON-or-plain-text Accept header to the API base', async () => {
    const fetch = fakeFetch(200, { ok: true });
    await createApiClient({ fetch }).request({ method: 'GET', path: 'authorize', params: { client_id: 'c1' } });
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(String(url)).toBe('/api/sso/v3/authorize?client_id=c1');
    expect(new Headers(init?.headers).get('accept')).toBe(ACCEPT_HEADER);
    expect(ACCEPT_HEADER).toBe('application/json, text/plain, */*');
  });

  it('sends a JSON body on POST', async () => {
    const fetch = fakeFetch(200, {});
    await createApiClient({ fetch }).request({ method: 'POST', path: 'auth/login', body: { email: 'a@b.co' } });
    const init = fetch.mock.calls[0]?.[1];
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"email":"a@b.co"}');
    expect(new Headers(init?.headers).get('content-type')).toBe('application/json');
  });

  it.each([
    ['success', 200, { challenge: 'x' }],
    ['failure', 401, { error_message: 'Incorrect email or password.' }],
  ])('turns the loading flag on for the request and off after a %s', async (_outcome, status, body) => {
    const loading = createLoadingFlag();
    const seen: boolean[] = [];
    loading.subscribe((on) => seen.push(on));
    let duringRequest: boolean | undefined;
    const fetch = vi.fn(async () => {
      duringRequest = loading.get();
      return new Response(JSON.stringify(body), { status });
    });
    await createApiClient({ fetch, loading }).request({ method: 'GET', path: 'authorize' }).catch(() => undefined);
    expect(duringRequest).toBe(true);
    expect(loading.get()).toBe(false);
    expect(seen).toEqual([true, false]);
  });

  it('keeps the flag on until overlapping requests have all answered', async () => {
    const loading = createLoadingFlag();
    const release: Array<() => void> = [];
    const fetch = vi.fn(() => new Promise<Response>((resolve) => release.push(() => resolve(new Response('{}')))));
    const api = createApiClient({ fetch, loading });
    const first = api.request({ method: 'GET', path: 'a' });
    const second = api.request({ method: 'GET', path: 'b' });
    await vi.waitFor(() => expect(release).toHaveLength(2));
    release[0]?.();
    await first;
    expect(loading.get()).toBe(true);
    release[1]?.();
    await second;
    expect(loading.get()).toBe(false);
  });

  it('passes every failure through the shared error handler, then rejects with an ApiError', async () => {
    const onError = vi.fn();
    const fetch = fakeFetch(401, { error_code: 'auth.invalid_credentials', error_message: 'Incorrect email or password.' });
    const failure = createApiClient({ fetch, onError }).request({ method: 'POST', path: 'auth/login', body: {} });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status: 401, code: 'auth.invalid_credentials', message: 'Incorrect email or password.' });
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('reports a network failure with the error’s own message', async () => {
    const fetch = vi.fn(async () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(createApiClient({ fetch }).request({ method: 'GET', path: 'authorize' })).rejects.toMatchObject({
      message: 'Failed to fetch',
    });
  });

  it('aborts a call that outlives its timeout', async () => {
    const fetch = vi.fn(
      (_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason))),
    );
    const call = createApiClient({ fetch }).request({ method: 'GET', path: 'clients/c1', timeoutMs: 20 });
    await expect(call).rejects.toBeInstanceOf(ApiError);
  });
});

describe('extractErrorMessage', () => {
  const all = {
    error_message: 'error_message',
    data: { error: { message: 'data.error.message' } },
    message: 'message',
    errorMessage: 'errorMessage',
  };
  const without = (...keys: Array<keyof typeof all>) =>
    Object.fromEntries(Object.entries(all).filter(([key]) => !keys.includes(key as keyof typeof all)));

  it.each<[string, unknown, string]>([
    ['response.data.error_message first', { status: 400, data: all, message: 'own' }, 'error_message'],
    ['then response.data.data.error.message', { status: 400, data: without('error_message'), message: 'own' }, 'data.error.message'],
    ['then response.data.message', { status: 400, data: without('error_message', 'data'), message: 'own' }, 'message'],
    ['then response.data.errorMessage', { status: 400, data: { errorMessage: 'errorMessage' }, message: 'own' }, 'errorMessage'],
    ["then the error's own message", { status: 500, data: '<html>oops</html>', message: 'own' }, 'own'],
    ['then the generic message', { status: 500, data: {} }, GENERIC],
    ['axios-style errors read error.response.data', { response: { data: all }, message: 'own' }, 'error_message'],
    ['a plain Error gives its message', new Error('boom'), 'boom'],
    ['blank strings are skipped', { status: 400, data: { error_message: ' ', message: 'message' } }, 'message'],
    ['nothing usable gives the generic message', undefined, GENERIC],
  ])('%s', (_name, error, expected) => {
    expect(extractErrorMessage(error)).toBe(expected);
  });
});
