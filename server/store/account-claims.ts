import type { Queryable } from '../db/database.ts';
import type { Company } from './companies.ts';

/** What a token or userinfo answer says about a user: the name and address, and the company the sign-in acts for. */
export interface AccountClaimsRow {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  /** Whether the person proved they receive mail at `email` (a code or a link sent there). */
  emailVerified: boolean;
  /** The company the grant's latest sign-in chose (while the user still belongs to it), else the last-used one. */
  company: Company | undefined;
}

/** The columns ACCOUNT_CLAIMS_SELECT answers, as PostgreSQL names them (also the keys of its row as JSON). */
export interface AccountClaimsColumns {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  email_verified: boolean;
  company_id: string | null;
  company_name: string | null;
}

/**
 * The select of one user's claims row, for the user id `userId` (a uuid) and the grant id `grantId` (text, or null),
 * both SQL expressions of the enclosing statement (a column or a parameter, never user input).
 */
export function accountClaimsSelect(userId: string, grantId: string): string {
  return `select u.id, u.email, u.first_name, u.last_name, u.email_verified_at is not null as email_verified, coalesce(chosen.id, latest.id) as company_id, coalesce(chosen.name, latest.name) as company_name
     from users u
     left join lateral (
       select c.id, c.name from sign_in_companies s join companies c on c.id = s.company_id
       join company_memberships m on m.company_id = c.id and m.user_id = u.id
       where ${grantId} is not null and s.grant_id = ${grantId} order by s.created_at desc limit 1
     ) chosen on true
     left join lateral (
       select c.id, c.name from company_memberships m join companies c on c.id = m.company_id
       where m.user_id = u.id order by m.last_used_at desc nulls last, c.name_normalized, c.id limit 1
     ) latest on true
     where u.id = ${userId}`;
}

/** The claims a row of accountClaimsSelect holds. */
export function toAccountClaims(row: AccountClaimsColumns): AccountClaimsRow {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    emailVerified: row.email_verified,
    company: row.company_id === null || row.company_name === null ? undefined : { id: row.company_id, name: row.company_name },
  };
}

/**
 * The user `userId` with the company their grant `grantId` acts for, in one round trip: the token and userinfo
 * endpoints ask for it on every request (unless the provider's token lookup read it ahead, server/oidc/adapter.ts).
 */
export async function findAccountClaims(db: Queryable, userId: string, grantId: string | undefined): Promise<AccountClaimsRow | undefined> {
  const result = await db.query<AccountClaimsColumns>(accountClaimsSelect('$1', '$2::text'), [userId, grantId ?? null]);
  const row = result.rows[0];
  return row && toAccountClaims(row);
}
