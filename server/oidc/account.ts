import type { Account, FindAccount } from 'oidc-provider';
import type { Queryable } from '../db/database.ts';
import { findUserById } from '../store/users.ts';

/** Which claims each scope releases; `openid` alone releases only `sub`. */
export const SCOPE_CLAIMS = {
  openid: ['sub'],
  email: ['email', 'email_verified'],
  profile: ['given_name', 'family_name', 'name'],
} as const;

// users.id is a uuid column: asking PostgreSQL about anything else raises a syntax error instead of "not found".
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** oidc-provider's findAccount over our users table; oidc-provider filters the claims by granted scope. */
export function createFindAccount(db: Queryable): FindAccount {
  return async (_ctx, sub): Promise<Account | undefined> => {
    if (!UUID.test(sub)) return undefined;
    const user = await findUserById(db, sub);
    if (!user) return undefined;
    const name = [user.firstName, user.lastName].filter((part) => part !== '').join(' ');
    return {
      accountId: user.id,
      claims: () => ({
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
