import type { Account, FindAccount } from 'oidc-provider';
import type { Queryable } from '../db/database.ts';
import { findAccountClaims } from '../store/account-claims.ts';

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
    const user = await findAccountClaims(db, sub, token?.grantId);
    if (!user) return undefined;
    const { company } = user;
    const name = [user.firstName, user.lastName].filter((part) => part !== '').join(' ');
    return {
      accountId: user.id,
      claims: () => ({
        ...(company ? { company: { id: company.id, name: company.name } } : {}),
        sub: user.id,
        email: user.email,
        // Registration proves ownership of the address before the account exists, so every stored email is verified.
        email_verified: true,
        given_name: user.firstName,
        family_name: user.lastName,
        name,
      }),
    };
  };
}
