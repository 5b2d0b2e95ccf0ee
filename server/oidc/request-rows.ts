import type { AdapterPayload } from 'oidc-provider';
import type { AccountClaimsRow } from '../store/account-claims.ts';
import { currentProviderRequest } from './provider-request.ts';

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

const keyOf = (model: string, column: string, value: string) => `${model}\u0000${column}\u0000${value}`;

/** The read-ahead rows of the request in progress (see runProviderRequest); outside a provider request nothing is kept. */
export const requestRows: RequestRows = {
  active: () => currentProviderRequest() !== undefined,
  take(model, column, value) {
    const rows = currentProviderRequest()?.rows;
    if (!rows || rows.size === 0) return undefined;
    const key = keyOf(model, column, value);
    const payload = rows.get(key);
    rows.delete(key);
    return payload;
  },
  keep(model, column, value, payload) {
    currentProviderRequest()?.rows.set(keyOf(model, column, value), payload);
  },
  forget(model) {
    const rows = currentProviderRequest()?.rows;
    if (!rows || rows.size === 0) return;
    for (const key of rows.keys()) if (key.startsWith(`${model}\u0000`)) rows.delete(key);
  },
};

const accountKey = (userId: string, grantId: string | undefined) => `${userId}\u0000${grantId ?? ''}`;

/**
 * Users' claims read ahead with the token (or finished Interaction) that names them, for the provider's findAccount
 * right after it in the same request; taken once, never kept past the request.
 */
export const requestAccounts = {
  keep(userId: string, grantId: string | undefined, claims: AccountClaimsRow | null): void {
    currentProviderRequest()?.accounts.set(accountKey(userId, grantId), claims);
  },
  /** What was read ahead for `userId` and `grantId`: `undefined` when nothing was, `null` when no such user exists. */
  take(userId: string, grantId: string | undefined): AccountClaimsRow | null | undefined {
    const accounts = currentProviderRequest()?.accounts;
    if (!accounts || accounts.size === 0) return undefined;
    const key = accountKey(userId, grantId);
    const claims = accounts.get(key);
    accounts.delete(key);
    return claims;
  },
};
