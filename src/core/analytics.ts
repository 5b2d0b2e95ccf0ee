/**
 * Analytics events: pushed to the tag manager's data layer when one is loaded, dropped otherwise,
 * so tracking never blocks or breaks a sign-in.
 */

/** The data-layer shape the tag manager reads. */
interface DataLayerHost {
  dataLayer?: Array<Record<string, unknown>>;
}

/** Records an analytics event by name (flow `events` values such as login_success). */
export function track(event: string, detail: Readonly<Record<string, unknown>> = {}): void {
  (globalThis as DataLayerHost).dataLayer?.push({ ...detail, event });
}
