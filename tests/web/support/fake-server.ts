/**
 * A fake single sign-on API behind a stubbed global fetch: each route answers with a recorded
 * status and body, and every request is kept for assertions.
 */
import { vi } from 'vitest';

/** One canned answer. */
export interface FakeAnswer {
  status?: number;
  body: unknown;
}

/** A request the fake server received. */
export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}

/** Routes keyed "METHOD path" (path relative to /api/sso/v3/), answered in order when given a list. */
export type FakeRoutes = Record<string, FakeAnswer | FakeAnswer[] | ((request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>)>;

const API_PREFIX = '/api/sso/v3/';

/** Stubs global fetch with `routes`; unknown routes answer 404 with a server-style error body. */
export function fakeServer(routes: FakeRoutes): { requests: FakeRequest[] } {
  const requests: FakeRequest[] = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const path = url.pathname.replace(/\/{2,}/g, '/').replace(API_PREFIX, '');
    const request: FakeRequest = {
      method: (init.method ?? 'GET').toUpperCase(),
      path,
      query: url.searchParams,
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    requests.push(request);
    const route = routes[`${request.method} ${path}`];
    const answer: FakeAnswer = !route
      ? { status: 404, body: { error_code: 'test.not_found', error_message: `No fake route ${request.method} ${path}` } }
      : typeof route === 'function'
        ? await route(request)
        : Array.isArray(route)
          ? (route.shift() ?? { status: 500, body: {} })
          : route;
    return new Response(JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchStub);
  return { requests };
}
