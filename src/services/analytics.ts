/**
 * Analytics events: pushed to the tag manager's data layer when one is loaded, dropped otherwise,
 * so tracking never blocks or breaks a sign-in. An event is its catalogue name (flows/shell/events.json)
 * and nothing else, so nothing personal or secret (email, code, token, destination, query values) can
 * reach the data layer with it.
 */

/** The data-layer shape the tag manager reads. */
export interface DataLayerHost {
  dataLayer?: Array<Record<string, unknown>>;
}

const EVENT_NAME = /^[a-z][a-z0-9_]*$/;

/** Records an analytics event by name (flow `events` values such as login_success). */
export function track(event: string): void {
  if (EVENT_NAME.test(event)) (globalThis as DataLayerHost).dataLayer?.push({ event });
}
