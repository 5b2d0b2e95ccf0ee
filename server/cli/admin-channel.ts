import type { AddClientInput, AddUserInput } from '../admin/operation-input.ts';
import type { UpdateClientInput } from '../admin/client-operations.ts';
import type { ClientReport } from '../store/client-listing.ts';
import type { InviteInput } from '../admin/company-operations.ts';
import type { Company } from '../store/companies.ts';
import type { AuditEntry, SessionsAction, UserReport, userSessions } from '../admin/user-operations.ts';
import { LIMITS } from '../limits.ts';

/** `company list` or `company members NAME`. */
export interface CompanyListing {
  companies: Array<Company & { members: number }>;
  members?: string[];
}

/** What `invite` did: invited (a link was emailed) or, for an existing account, only added to the company. */
export interface InviteResult {
  email: string;
  company: string;
  invited: boolean;
  expiresAt?: string;
}

/** The operations the CLI can run, wherever the database is. */
export interface AdminChannel {
  addClient(input: AddClientInput): Promise<{ clientId: string; secret: string | undefined; created: boolean }>;
  updateClient(input: UpdateClientInput): Promise<{ clientId: string; secret: string | undefined }>;
  /** Every client app, or the one named. */
  listClients(clientId?: string): Promise<{ clients: ClientReport[] }>;
  addUser(input: AddUserInput): Promise<{ id: string; email: string }>;
  requireReset(email: string): Promise<{ id: string; email: string }>;
  addCompany(name: string): Promise<Company>;
  addUserToCompany(name: string, email: string): Promise<{ company: string; email: string }>;
  listCompanies(name?: string): Promise<CompanyListing>;
  invite(input: InviteInput): Promise<InviteResult>;
  /** Adds new signing and credential keys; returns their ids. */
  rotateKeys(): Promise<{ signing: string[]; credentials: string }>;
  showUser(email: string): Promise<UserReport>;
  resetMfa(email: string): Promise<{ email: string; removed: string[]; sessionsEnded: number }>;
  unlockUser(email: string): Promise<{ email: string }>;
  disableUser(email: string): Promise<{ email: string; changed: boolean; sessionsEnded: number }>;
  enableUser(email: string): Promise<{ email: string; changed: boolean }>;
  userSessions(email: string, action: SessionsAction): Promise<Awaited<ReturnType<typeof userSessions>>>;
  audit(query: { email?: string; sinceSeconds?: number; limit?: number }): Promise<{ events: AuditEntry[] }>;
  close(): Promise<void>;
}

/** Thrown with the server's own one-line message. */
export class AdminRequestError extends Error {
  override readonly name = 'AdminRequestError';
}

/** The operations sent to a running server's loopback admin API. */
export function httpChannel(url: string, token: string): AdminChannel {
  const post = async <T>(route: string, body: unknown): Promise<T> => {
    const response = await fetch(`${url}/admin/v1/${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(LIMITS.ADMIN_API_TIMEOUT_MS),
    });
    const json = (await response.json()) as T & { error_message?: string };
    if (!response.ok) throw new AdminRequestError(json.error_message ?? `the server answered ${response.status}`);
    return json;
  };
  return {
    addClient: (input) => post('clients', input),
    updateClient: (input) => post('clients/update', input),
    listClients: (clientId) => post('clients/listing', clientId === undefined ? {} : { clientId }),
    addUser: (input) => post('users', input),
    requireReset: (email) => post('users/require-reset', { email }),
    addCompany: (name) => post('companies', { name }),
    addUserToCompany: (name, email) => post('companies/members', { name, email }),
    listCompanies: (name) => post('companies/listing', name === undefined ? {} : { name }),
    invite: (input) => post('invitations', input),
    rotateKeys: () => post('keys/rotate', {}),
    showUser: (email) => post('users/show', { email }),
    resetMfa: (email) => post('users/reset-mfa', { email }),
    unlockUser: (email) => post('users/unlock', { email }),
    disableUser: (email) => post('users/disable', { email }),
    enableUser: (email) => post('users/enable', { email }),
    userSessions: (email, action) => post('users/sessions', { email, ...('end' in action ? { end: action.end } : 'endAll' in action ? { endAll: true } : {}) }),
    audit: (query) => post('audit', query),
    close: async () => undefined,
  };
}
