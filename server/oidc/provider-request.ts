import { AsyncLocalStorage } from 'node:async_hooks';
import type { AdapterPayload } from 'oidc-provider';
import type { AccountClaimsRow } from '../store/account-claims.ts';

/**
 * A write of one oidc_payloads row that the provider asked for during the request in progress. `consume` marks a
 * single-use row (a code, a refresh token) used, and the request's other writes land only if it was still unused.
 */
export type PendingWrite =
  | { kind: 'upsert'; model: string; id: string; payload: AdapterPayload; expiresIn: number | undefined }
  | { kind: 'destroy' | 'consume'; model: string; id: string };

/** What the adapter keeps for one provider request: rows read ahead (request-rows.ts) and writes held back (request-writes.ts). */
export interface ProviderRequestState {
  rows: Map<string, AdapterPayload | null>;
  /** Users' claims read ahead with a token or a finished Interaction, by user and grant (null: no such user). */
  accounts: Map<string, AccountClaimsRow | null>;
  writes: {
    pending: Map<string, PendingWrite>;
    /** The sending of the writes already on their way, one after another. */
    sent: Promise<void>;
  };
}

const storage = new AsyncLocalStorage<ProviderRequestState>();

/** The state of the provider request in progress; undefined outside one (the API's own calls into the provider). */
export function currentProviderRequest(): ProviderRequestState | undefined {
  return storage.getStore();
}

/** Runs `work` (one provider request) with its own read-ahead rows and held-back writes. */
export function runProviderRequest<T>(work: () => Promise<T>): Promise<T> {
  return storage.run({ rows: new Map(), accounts: new Map(), writes: { pending: new Map(), sent: Promise.resolve() } }, work);
}
