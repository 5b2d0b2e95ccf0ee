/**
 * Analytics events: pushed to the tag manager's data layer when one is loaded, dropped otherwise,
 * so tracking never blocks or breaks a sign-in. Nothing personal or secret is ever pushed: an event
 * is its catalogue name (flows/shell/events.json) plus, at most, a few named non-personal details.
 */

/** The data-layer shape the tag manager reads. */
export interface DataLayerHost {
  dataLayer?: Array<Record<string, unknown>>;
}

/** The only detail names an event may carry; anything else (email, code, token, destination, query values) is dropped. */
const SAFE_DETAILS = new Set(['step', 'flow', 'error_code', 'language']);

const EVENT_NAME = /^[a-z][a-z0-9_]*$/;
// A value that could be personal or secret even under a safe name: an address, a run of digits, a long token.
const PERSONAL_VALUE = /@|\d{4,}|[A-Za-z0-9_-]{24,}/;

/** The details of `detail` that are safe to send. */
export function safeDetail(detail: Readonly<Record<string, unknown>>): Record<string, string | number | boolean> {
  const safe: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(detail)) {
    if (!SAFE_DETAILS.has(name)) continue;
    if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value) && Math.abs(value) < 1000)) safe[name] = value;
    else if (typeof value === 'string' && value.length <= 64 && !PERSONAL_VALUE.test(value)) safe[name] = value;
  }
  return safe;
}

/** Records an analytics event by name (flow `events` values such as login_success). */
export function track(event: string, detail: Readonly<Record<string, unknown>> = {}): void {
  if (!EVENT_NAME.test(event)) return;
  (globalThis as DataLayerHost).dataLayer?.push({ ...safeDetail(detail), event });
}
