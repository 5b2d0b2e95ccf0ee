import type { Account, FindAccount } from 'oidc-provider';
import type { Queryable } from '../db/database.ts';
import { findAccountClaims } from '../store/account-claims.ts';
import { requestAccounts } from './request-rows.ts';

/** Which claims each scope releases; `openid` alone releases only `sub`. */
export const SCOPE_CLAIMS = {
  openid: ['sub'],
  email: ['email', 'email_verified'],
  profile: ['given_name', 'family_name', 'name'],
  /** The company the sign-in acts for, as `{ id, name }`. */
  company: ['company'],
} as const;

// users.id is a uuid column: asking PostgreSQL about anything else raises a syntax error instead of "not found".
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** oidc-provider's findAccount over our users table; oidc-provider filters the claims by granted scope. */
export function createFindAccount(db: Queryable): FindAccount {
  return async (_ctx, sub, token): Promise<Account | undefined> => {
    if (!UUID.test(sub)) return undefined;
    // The company this sign-in chose lives with its grant (one per browser session and client app); a grant that
    // never chose (a second app joining the session) acts for the user's last-used company.
    // The token's lookup usually read the claims ahead, in its own round trip (server/oidc/adapter.ts).
    const readAhead = requestAccounts.take(sub, token?.grantId);
    const user = readAhead === undefined ? await findAccountClaims(db, sub, token?.grantId) : readAhead;
    if (!user) return undefined;
    const { company } = user;
    const name = [user.firstName, user.lastName].filter((part) => part !== '').join(' ');
    return {
      accountId: user.id,
      claims: () => ({
        ...(company ? { company: { id: company.id, name: company.name } } : {}),
        sub: user.id,
        email: user.email,
        // True once the person entered a code or followed a link sent to the address; an operator's account starts unproven.
        email_verified: user.emailVerified,
        given_name: user.firstName,
        family_name: user.lastName,
        name,
      }),
    };
  };
}
