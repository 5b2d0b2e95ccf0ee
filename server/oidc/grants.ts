import type { Grant, KoaContextWithOIDC } from 'oidc-provider';
import { SCOPE_CLAIMS } from './account.ts';

const SUPPORTED_SCOPES: ReadonlySet<string> = new Set([...Object.keys(SCOPE_CLAIMS), 'offline_access']);
const SUPPORTED_CLAIMS: ReadonlySet<string> = new Set(Object.values(SCOPE_CLAIMS).flat());

/** The OpenID scopes and claims an authorization request asked for, limited to what we support. */
export interface RequestedAccess {
  scopes: string[];
  claims: string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the `scope` and `claims` authorization parameters (as stored on an Interaction). */
export function requestedAccess(params: Record<string, unknown>): RequestedAccess {
  const scopes = typeof params.scope === 'string' ? params.scope.split(' ').filter((scope) => SUPPORTED_SCOPES.has(scope)) : [];
  const claims = new Set<string>();
  if (typeof params.claims === 'string') {
    try {
      const parsed: unknown = JSON.parse(params.claims);
      if (isRecord(parsed)) {
        for (const target of [parsed.userinfo, parsed.id_token]) {
          if (isRecord(target)) Object.keys(target).filter((claim) => SUPPORTED_CLAIMS.has(claim)).forEach((claim) => claims.add(claim));
        }
      }
    } catch {
      // oidc-provider already rejected malformed claims parameters before the interaction was created.
    }
  }
  return { scopes, claims: [...claims] };
}

/** Adds the requested access to `grant`: every registered client is a first-party app, so nobody is asked to consent. */
export function grantRequestedAccess(grant: Grant, access: RequestedAccess): void {
  if (access.scopes.length > 0) grant.addOIDCScope(access.scopes);
  if (access.claims.length > 0) grant.addOIDCClaims(access.claims);
}

/**
 * oidc-provider's `loadExistingGrant`, following its first-party recipe: reuse the session's grant for this client
 * (or the one the interaction produced), widen it to what is asked now, and create one when there is none. This is
 * what lets a second client app sign in silently on the provider's existing session.
 */
export async function loadExistingGrant(ctx: KoaContextWithOIDC): Promise<Grant | undefined> {
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
  grantRequestedAccess(grant, { scopes: [...ctx.oidc.requestParamOIDCScopes], claims: [...ctx.oidc.requestParamClaims] });
  // Keep the grant alive as long as the session, so a long session never falls back to a consent prompt.
  if (session.exp !== undefined && grant.exp !== undefined && grant.exp < session.exp) grant.exp = session.exp;
  if (before === undefined || JSON.stringify(grant) !== before) await grant.save();
  return grant;
}
