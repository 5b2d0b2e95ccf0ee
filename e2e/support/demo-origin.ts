import { defaultDemoUrl } from '../../server/config.ts';

/**
 * The demo client app's own origin for the e2e server at `baseURL`: the servers run with DEMO_URL unset, so the demo
 * is where that default puts it (the other loopback name, the next port). `path` is resolved against it.
 */
export function demoUrl(baseURL: string, path = '/demo/'): string {
  const provider = new URL(baseURL);
  return new URL(path, defaultDemoUrl(provider.origin, Number(provider.port) + 1)).href;
}
