/** The admin channel that opens the database in the CLI's own process: PostgreSQL, or an embedded database no server holds. */
import type { Config } from '../config.ts';
import { LIMITS } from '../limits.ts';
import { createSecretBox, loadMasterKey } from '../crypto/secret-box.ts';
import { openConfiguredDatabase } from '../runtime.ts';
import { addClient, addUser, requireReset, rotateKeys } from '../admin/operations.ts';
import { createKeyStore } from '../crypto/key-store.ts';
import { clientReports, updateClient } from '../admin/client-operations.ts';
import { createOutbox } from '../outbox/outbox.ts';
import { createSmsSender } from '../sms/sms-sender.ts';
import { addCompany, addUserToCompany, companyListing, invite } from '../admin/company-operations.ts';
import { systemClock } from '../clock.ts';
import { createMailer } from '../mail/mailer.ts';
import type { ClientDirectory } from '../auth/sessions.ts';
import { auditTrail, disableUser, enableUser, resetMfa, showUser, unlockUser, userSessions, type OperatorDeps } from '../admin/user-operations.ts';
import type { AdminChannel } from './admin-channel.ts';

/** Opens the database here and runs each operation on it. */
export async function directChannel(config: Config): Promise<AdminChannel> {
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
