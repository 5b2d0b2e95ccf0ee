import type { Grant, KoaContextWithOIDC } from 'oidc-provider';
import type { Queryable } from '../db/database.ts';
import { rememberedScopes } from '../store/app-consents.ts';
import { isFirstParty, withinConsent } from './consent.ts';
import type { RequestedAccess } from './requested-access.ts';

/** Adds `access` to `grant`; what a person may be asked to allow is decided before (consent.ts). */
export function grantRequestedAccess(grant: Grant, access: RequestedAccess): void {
  if (access.scopes.length > 0) grant.addOIDCScope(access.scopes);
  if (access.claims.length > 0) grant.addOIDCClaims(access.claims);
}

/**
 * oidc-provider's `loadExistingGrant`, following its first-party recipe: reuse the session's grant for this client
 * (or the one the interaction produced), widen it to what is asked now, and create one when there is none. This is
 * what lets a second client app sign in silently on the provider's existing session. A client that is not
 * first-party is widened only to what the person allowed it (app_consents); anything more is left missing, so the
 * provider asks for consent.
 */
export function createLoadExistingGrant(db: Queryable) {
  return (ctx: KoaContextWithOIDC) => loadExistingGrant(db, ctx);
}

async function loadExistingGrant(db: Queryable, ctx: KoaContextWithOIDC): Promise<Grant | undefined> {
  const { client, session, provider, result } = ctx.oidc;
  const accountId = session?.accountId;
  if (!client || !session || !accountId) return undefined;
  const grantId = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
  let grant = grantId ? await provider.Grant.find(grantId) : undefined;
  // A grant made for another account (the session changed hands) must not be reused.
  if (grant && (grant.accountId !== accountId || grant.clientId !== client.clientId)) grant = undefined;
  grant ??= new provider.Grant({ clientId: client.clientId, accountId });
  // The grant the sign-in just saved usually holds all of this already; saving it unchanged would be a wasted write.
  const before = grant.jti === undefined ? undefined : JSON.stringify(grant);
  const asked = { scopes: [...ctx.oidc.requestParamOIDCScopes], claims: [...ctx.oidc.requestParamClaims] };
  grantRequestedAccess(grant, isFirstParty(client) ? asked : withinConsent(asked, await rememberedScopes(db, accountId, client.clientId)));
  // Keep the grant alive as long as the session, so a long session never falls back to a consent prompt.
  if (session.exp !== undefined && grant.exp !== undefined && grant.exp < session.exp) grant.exp = session.exp;
  if (before === undefined || JSON.stringify(grant) !== before) await grant.save();
  return grant;
}
