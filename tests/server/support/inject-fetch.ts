import type * as oidc from 'openid-client';
import type { TestApp } from './test-app.ts';

/** Routes openid-client's HTTP calls into the server under test, as if over the network. */
export function injectFetch(server: Pick<TestApp, 'app'>): oidc.CustomFetch {
  return async (url, options) => {
    const target = new URL(url);
    const response = await server.app.inject({
      method: options.method as 'GET' | 'POST',
      url: `${target.pathname}${target.search}`,
      headers: Object.fromEntries(new Headers(options.headers).entries()),
      payload: options.body === undefined || options.body === null ? undefined : String(options.body),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : String(value));
    }
    return new Response(response.statusCode === 204 ? null : new Uint8Array(response.rawPayload), { status: response.statusCode, headers });
  };
}
