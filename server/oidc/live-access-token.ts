import type Provider from 'oidc-provider';

/** An access token the provider would honour at its userinfo endpoint: who it speaks for, and whose it is. */
export interface LiveAccessToken {
  accountId: string;
  clientId: string;
  /** The DPoP key thumbprint the token is bound to (RFC 9449 `cnf.jkt`), when it is bound. */
  jkt: string | undefined;
}

/**
 * Finds `value` as `/oidc/me` would accept it: a live access token for a person, with the `openid` scope and no
 * resource-server audience, under a grant that still exists for the same client and account. A token whose grant
 * was revoked (a replayed code or refresh token, a sign-out everywhere) is refused even if its row survived.
 */
export async function findLiveAccessToken(provider: Provider, value: string): Promise<LiveAccessToken | undefined> {
  const token = await provider.AccessToken.find(value);
  if (!token || token.isExpired || !token.accountId || !token.clientId || !token.grantId) return undefined;
  if (token.aud !== undefined || !token.scopes.has('openid')) return undefined;
  const grant = await provider.Grant.find(token.grantId, { ignoreExpiration: true });
  if (!grant || grant.isExpired || grant.clientId !== token.clientId || grant.accountId !== token.accountId) return undefined;
  return { accountId: token.accountId, clientId: token.clientId, jkt: token.jkt };
}
