import { SERVER_CHALLENGES } from '../../flows/challenges.ts';
import { consentRequestOf, type ConsentRequest } from '../../oidc/consent.ts';
import type { Services } from '../../services.ts';
import { rememberedScopes } from '../../store/app-consents.ts';
import { findClientInfo } from '../../store/clients.ts';
import type { Queryable } from '../../db/database.ts';
import type { GateAnswer, PendingSignIn } from '../pending-sign-in.ts';

/**
 * What the consent screen shows: the app's name, and each scope it asks for (`scopes.email: true`) ticked, so the
 * person may untick any; the scopes it does not ask for are named under `unasked`, which hides their boxes.
 */
export async function consentAnswer(db: Queryable, clientId: string, request: ConsentRequest): Promise<GateAnswer> {
  const client = await findClientInfo(db, clientId);
  const offered = ['email', 'profile', 'company', 'offline_access'];
  return {
    challenge: SERVER_CHALLENGES.CONSENT_REQUIRED,
    parameters: {
      client_name: client?.name ?? clientId,
      scopes: Object.fromEntries(request.scopes.map((scope) => [scope, true])),
      unasked: Object.fromEntries(offered.filter((scope) => !request.scopes.includes(scope)).map((scope) => [scope, true])),
    },
  };
}

/**
 * A client app that is not first-party may have only what the person allowed it: asked once per app (and again
 * when it asks for more, or sends prompt=consent), remembered, and revocable on the account page.
 */
export async function appConsent(deps: Pick<Services, 'db'>, sign: PendingSignIn): Promise<GateAnswer | undefined> {
  const request = consentRequestOf(sign.transaction.data);
  if (!request || request.firstParty || request.declined !== undefined) return undefined;
  const remembered = await rememberedScopes(deps.db, sign.userId, sign.transaction.clientId);
  if (!request.prompt && request.scopes.every((scope) => remembered.includes(scope))) return undefined;
  return consentAnswer(deps.db, sign.transaction.clientId, request);
}
