/** What an authorization request asks for, read from its parameters: the grants and the consent step both need it. */
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
