import { AsyncLocalStorage } from 'node:async_hooks';
import type { AdapterPayload } from 'oidc-provider';

/**
 * Rows of oidc_payloads read ahead for the provider request in progress: a token names its Session and Grant, which
 * the provider looks up right after it (userinfo, the token endpoint), so the adapter reads all three in one round
 * trip and keeps the two for the next lookups of this same request. Nothing outlives the request, and any write to
 * a model drops what was read ahead of it.
 */
export interface RequestRows {
  /** True inside a provider request, where reading ahead pays off. */
  active(): boolean;
  /** What was read ahead for `model` by `column`, taken once: `undefined` when nothing was, `null` when no row exists. */
  take(model: string, column: 'id' | 'uid', value: string): AdapterPayload | null | undefined;
  keep(model: string, column: 'id' | 'uid', value: string, payload: AdapterPayload | null): void;
  forget(model: string): void;
}

const storage = new AsyncLocalStorage<Map<string, AdapterPayload | null>>();

const keyOf = (model: string, column: string, value: string) => `${model}\u0000${column}\u0000${value}`;

/** Runs `work` (one provider request) with its own read-ahead rows. */
export function withRequestRows<T>(work: () => T): T {
  return storage.run(new Map(), work);
}

/** The read-ahead rows of the request in progress; outside a provider request nothing is kept. */
export const requestRows: RequestRows = {
  active: () => storage.getStore() !== undefined,
  take(model, column, value) {
    const rows = storage.getStore();
    const key = keyOf(model, column, value);
    const payload = rows?.get(key);
    rows?.delete(key);
    return payload;
  },
  keep(model, column, value, payload) {
    storage.getStore()?.set(keyOf(model, column, value), payload);
  },
  forget(model) {
    const rows = storage.getStore();
    if (!rows) return;
    for (const key of rows.keys()) if (key.startsWith(`${model}\u0000`)) rows.delete(key);
  },
};
