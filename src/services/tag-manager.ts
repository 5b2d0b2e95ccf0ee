/**
 * Tag tracking (spec, sections 4 and 7): `GET /api/gaid` answers `{ data: { gtmId } }`. Only with a
 * gtmId is Google Tag Manager loaded (its data layer started, its script added); without one, or when
 * the call or the script fails, tracking stays off and events are dropped. Events tracked before the
 * script has loaded wait in the data layer, where the tag manager finds them.
 */
import type { DataLayerHost } from './analytics.ts';

/** What starting the tag manager needs, so tests pass fakes. */
export interface TagManagerDeps {
  configUrl: string;
  tagManagerUrl: string;
  host: DataLayerHost;
  loadScript: (src: string) => Promise<void>;
  fetch?: typeof fetch;
  now?: () => number;
}

const GTM_ID = /^GTM-[A-Z0-9]+$/;

/** The gtmId of an analytics config answer, if it holds a well-formed one. */
function readGtmId(answer: unknown): string | undefined {
  const gtmId = (answer as { data?: { gtmId?: unknown } } | null)?.data?.gtmId;
  return typeof gtmId === 'string' && GTM_ID.test(gtmId) ? gtmId : undefined;
}

/** Starts tag tracking if the analytics config has a gtmId; resolves true once the tag manager loaded. */
export async function startTagManager(deps: TagManagerDeps): Promise<boolean> {
  const fetchImpl = deps.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  try {
    const response = await fetchImpl(deps.configUrl, { headers: { Accept: 'application/json' } });
    if (!response.ok) return false;
    const gtmId = readGtmId(await response.json());
    if (!gtmId) return false;
    deps.host.dataLayer = deps.host.dataLayer ?? [];
    deps.host.dataLayer.push({ 'gtm.start': (deps.now ?? Date.now)(), event: 'gtm.js' });
    await deps.loadScript(`${deps.tagManagerUrl}?id=${encodeURIComponent(gtmId)}`);
    return true;
  } catch {
    // No tag manager, no tracking.
    delete deps.host.dataLayer;
    return false;
  }
}
