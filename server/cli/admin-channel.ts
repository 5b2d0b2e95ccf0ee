import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { LIMITS } from '../limits.ts';
import { createSecretBox, loadMasterKey } from '../crypto/secret-box.ts';
import { ADMIN_FILE_NAME } from './admin-file.ts';
import { openConfiguredDatabase } from '../runtime.ts';
import { addClient, addUser, requireReset, rotateKeys, type AddClientInput, type AddUserInput } from '../admin/operations.ts';
import { createKeyStore } from '../crypto/key-store.ts';
import { clientReports, updateClient, type UpdateClientInput } from '../admin/client-operations.ts';
import type { ClientReport } from '../store/client-listing.ts';
import { createOutbox } from '../outbox/outbox.ts';
import { createSmsSender } from '../sms/sms-sender.ts';
import { addCompany, addUserToCompany, companyListing, invite, type InviteInput } from '../admin/company-operations.ts';
import { systemClock } from '../clock.ts';
import { createMailer } from '../mail/mailer.ts';
import type { Company } from '../store/companies.ts';
import type { ClientDirectory } from '../auth/sessions.ts';
import {
  auditTrail,
  disableUser,
  enableUser,
  resetMfa,
  showUser,
  unlockUser,
  userSessions,
  type AuditEntry,
  type OperatorDeps,
  type SessionsAction,
  type UserReport,
} from '../admin/user-operations.ts';

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

/** How long the CLI waits for a running server before concluding it is gone. */
const ADMIN_TIMEOUT_MS = 5000;

function httpChannel(url: string, token: string): AdminChannel {
  const post = async <T>(route: string, body: unknown): Promise<T> => {
    const response = await fetch(`${url}/admin/v1/${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(ADMIN_TIMEOUT_MS),
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

async function directChannel(config: Config): Promise<AdminChannel> {
  const { db, release } = await openConfiguredDatabase(config);
  const box = createSecretBox(loadMasterKey(config));
  const outbox = createOutbox({
    db,
    box,
    transports: { mailer: createMailer({ config, db }), sms: createSmsSender({ config, db }) },
    log: { warn: (_details, text) => process.stderr.write(`warning: ${text}\n`) },
  });
  // The provider signs the back-channel logout tokens that ending a session sends; it serves no requests here, and
  // is loaded only when a session with a client app ends (loading it costs time).
  let provider: Promise<ClientDirectory> | undefined;
  const loadProvider = async (): Promise<ClientDirectory> => {
    const { createOidcProvider } = await import('../oidc/provider.ts');
    const keys = createKeyStore({ db, box, clock: systemClock });
    const onInteractionStart = async (): Promise<string> => {
      throw new Error('the CLI starts no sign-in');
    };
    return createOidcProvider({ config, db, keys, box, onInteractionStart });
  };
  const clients: ClientDirectory = { Client: { find: async (clientId) => (await (provider ??= loadProvider())).Client.find(clientId) } };
  const operator: OperatorDeps = {
    db,
    provider: clients,
    clock: systemClock,
    mailer: outbox.mailer,
    config,
    onLogoutDeliveryFailure: ({ clientId, error }) =>
      process.stderr.write(`warning: ${clientId} was not told of the logout: ${error instanceof Error ? error.message : String(error)}\n`),
  };
  return {
    addClient: (input) => addClient({ db, box }, input),
    updateClient: (input) => updateClient({ db, box }, input),
    listClients: async (clientId) => ({ clients: await clientReports({ db }, clientId) }),
    addUser: async (input) => {
      const user = await addUser({ db }, input);
      return { id: user.id, email: user.email };
    },
    requireReset: async (email) => {
      const user = await requireReset(operator, email);
      return { id: user.id, email: user.email };
    },
    addCompany: (name) => addCompany({ db }, name),
    addUserToCompany: async (name, email) => {
      const added = await addUserToCompany({ db }, name, email);
      return { company: added.company.name, email: added.email };
    },
    listCompanies: (name) => companyListing({ db }, name),
    // Without a running server the CLI sends the invitation itself, through the outbox as the server does: a failed
    // send stays queued for the next server process to retry.
    invite: (input) => invite({ db, mailer: outbox.mailer, config, clock: systemClock }, input),
    rotateKeys: () => rotateKeys(createKeyStore({ db, box, clock: systemClock })),
    showUser: (email) => showUser(operator, email),
    resetMfa: (email) => resetMfa(operator, email),
    unlockUser: (email) => unlockUser(operator, email),
    disableUser: (email) => disableUser(operator, email),
    enableUser: (email) => enableUser(operator, email),
    userSessions: (email, action) => userSessions(operator, email, action),
    audit: async (query) => ({ events: await auditTrail(operator, { ...query, limit: query.limit ?? LIMITS.SECURITY_EVENTS_LISTED }) }),
    close: release,
  };
}

async function isReachable(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(ADMIN_TIMEOUT_MS) });
    return true;
  } catch {
    return false;
  }
}

/**
 * PostgreSQL: connect directly. Embedded database: if a server is running it holds the database, so go through
 * its loopback admin API; otherwise open the database here.
 */
export async function openAdminChannel(config: Config): Promise<AdminChannel> {
  if (config.databaseUrl !== undefined) return directChannel(config);
  const file = path.join(config.dataDir, ADMIN_FILE_NAME);
  if (fs.existsSync(file)) {
    const { url, token } = JSON.parse(fs.readFileSync(file, 'utf8')) as { url: string; token: string };
    if (await isReachable(url)) return httpChannel(url, token);
  }
  return directChannel(config);
}
