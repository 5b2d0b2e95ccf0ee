import { randomToken } from '../crypto/hash.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Queryable } from '../db/database.ts';
import { listClientReports, type ClientReport } from '../store/client-listing.ts';
import { findClientSecurity, setClientSecurity } from '../store/client-security.ts';
import { findClient, findClientLogout, setClientLogout, setClientRefreshTokens, upsertClient } from '../store/clients.ts';
import { setClientSignInStart } from '../store/invitations.ts';
import { checkResourceServerFree, resolveClientSecurity, type ClientSecurityInput } from './client-security-input.ts';
import { OperationError } from './operation-error.ts';
import { checkRedirectUri } from './operation-input.ts';

/** What `client update ID` takes: only what is given changes. */
export interface UpdateClientInput extends ClientSecurityInput {
  clientId: string;
  name?: string;
  redirectUris?: string[];
  initiateLoginUri?: string;
  refreshTokens?: boolean;
  postLogoutRedirectUris?: string[];
  backchannelLogoutUri?: string;
}

/**
 * Changes a registered client app, keeping its secret; a client moved from private_key_jwt to a secret method gets a
 * new secret (returned once), and one moved to private_key_jwt loses its secret.
 */
export async function updateClient(deps: { db: Queryable; box: SecretBox }, input: UpdateClientInput): Promise<{ clientId: string; secret: string | undefined }> {
  const client = await findClient(deps.db, deps.box, input.clientId);
  if (!client) throw new OperationError(`no client app has the id ${input.clientId}`);
  const security = resolveClientSecurity(input, client, await findClientSecurity(deps.db, input.clientId));
  await checkResourceServerFree(deps.db, input.clientId, input.resourceServer);
  const usesSecret = security.authMethod === 'client_secret_basic' || security.authMethod === 'client_secret_jwt';
  const secret = usesSecret && client.secret === undefined ? randomToken(32) : undefined;
  input.redirectUris?.forEach(checkRedirectUri);
  if (input.redirectUris?.length === 0) throw new OperationError('at least one --redirect-uri is required');
  if (input.initiateLoginUri !== undefined) checkRedirectUri(input.initiateLoginUri);
  input.postLogoutRedirectUris?.forEach(checkRedirectUri);
  if (input.backchannelLogoutUri !== undefined) checkRedirectUri(input.backchannelLogoutUri);
  await upsertClient(deps.db, deps.box, {
    ...client,
    name: input.name?.trim() || client.name,
    redirectUris: input.redirectUris ? [...new Set(input.redirectUris)] : client.redirectUris,
    secret: usesSecret ? (secret ?? client.secret) : undefined,
  });
  await setClientSecurity(deps.db, input.clientId, security);
  if (input.initiateLoginUri !== undefined) await setClientSignInStart(deps.db, input.clientId, input.initiateLoginUri);
  if (input.refreshTokens !== undefined) await setClientRefreshTokens(deps.db, input.clientId, input.refreshTokens);
  if (input.postLogoutRedirectUris !== undefined || input.backchannelLogoutUri !== undefined) {
    const current = await findClientLogout(deps.db, input.clientId);
    await setClientLogout(deps.db, input.clientId, {
      postLogoutRedirectUris: input.postLogoutRedirectUris ? [...new Set(input.postLogoutRedirectUris)] : current.postLogoutRedirectUris,
      backchannelLogoutUri: input.backchannelLogoutUri ?? current.backchannelLogoutUri,
    });
  }
  return { clientId: input.clientId, secret };
}

/** Every client app (`client list`), or the one named (`client show ID`), which must exist. */
export async function clientReports(deps: { db: Queryable }, clientId?: string): Promise<ClientReport[]> {
  const reports = await listClientReports(deps.db, clientId);
  if (clientId !== undefined && reports.length === 0) throw new OperationError(`no client app has the id ${clientId}`);
  return reports;
}
