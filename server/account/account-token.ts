import type Provider from 'oidc-provider';
import { ApiError } from '../errors.ts';
import type { RequestOrigin } from '../store/security-events.ts';
import { ACCOUNT_CLIENT_ID } from './account-client.ts';

/** Who is using the account page: the user, and the provider session (browser) their token came from. */
export interface AccountCaller {
  userId: string;
  /** oidc-provider's Session uid: "this device" on the sessions list, and the key of step-ups. */
  sessionUid: string;
  grantId: string;
  /** The address and browser of the request, for the audit trail. */
  origin: RequestOrigin;
}

/**
 * Reads the account page's bearer token: an access token our provider issued to the account page's own client, live,
 * and tied to a session (it dies with that session's grant). Anything else is refused as signed out.
 */
export async function authenticateAccountCaller(provider: Provider, authorization: string | undefined, origin: RequestOrigin): Promise<AccountCaller> {
  const match = /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(authorization ?? '');
  if (!match?.[1]) throw new ApiError('account.signed_out');
  const token = await provider.AccessToken.find(match[1]);
  if (!token || token.isExpired || token.clientId !== ACCOUNT_CLIENT_ID) throw new ApiError('account.signed_out');
  const { accountId, sessionUid, grantId } = token;
  if (!accountId || !sessionUid || !grantId) throw new ApiError('account.signed_out');
  // A grant revoked with its session (sign out elsewhere, a password change) takes the token with it.
  const grant = await provider.Grant.find(grantId);
  if (!grant || grant.accountId !== accountId) throw new ApiError('account.signed_out');
  return { userId: accountId, sessionUid, grantId, origin };
}
