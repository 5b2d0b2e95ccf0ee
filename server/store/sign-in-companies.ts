import type { Queryable } from '../db/database.ts';
import type { Company, Membership } from './companies.ts';

/**
 * The company one sign-in settled on. It is kept per interaction while the sign-in runs, then bound to the grant
 * oidc-provider issues its tokens under, so two browser sessions of one user can act for different companies.
 */
export async function chooseSignInCompany(db: Queryable, input: { interactionUid: string; companyId: string; expiresAt: Date }): Promise<void> {
  await db.query(
    `insert into sign_in_companies (interaction_uid, company_id, expires_at) values ($1, $2, $3)
     on conflict (interaction_uid) do update set company_id = excluded.company_id, expires_at = excluded.expires_at`,
    [input.interactionUid, input.companyId, input.expiresAt],
  );
}

/**
 * Whether the running sign-in of `interactionUid` has chosen its company, and the user's companies, the last used
 * first (as `membershipsOf` orders them): what the company gate needs, in one round trip.
 */
export async function companyChoiceState(db: Queryable, interactionUid: string, userId: string): Promise<{ chosen: boolean; companies: Membership[] }> {
  const result = await db.query<{ chosen: boolean; id: string | null; name: string | null; last_used_at: Date | null }>(
    `select exists (select 1 from sign_in_companies where interaction_uid = $1) as chosen, c.id, c.name, m.last_used_at
     from (select 1) as one
     left join (company_memberships m join companies c on c.id = m.company_id) on m.user_id = $2
     order by m.last_used_at desc nulls last, c.name_normalized, c.id`,
    [interactionUid, userId],
  );
  const companies: Membership[] = [];
  for (const row of result.rows) {
    if (row.id !== null && row.name !== null) companies.push({ id: row.id, name: row.name, lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at) });
  }
  return { chosen: result.rows[0]?.chosen === true, companies };
}

/**
 * Binds a finished sign-in's choice to its grant, to live as long as the grant, and makes that company the user's
 * last used, in one round trip; false when it chose none.
 */
export async function bindSignInCompany(db: Queryable, input: { interactionUid: string; grantId: string; userId: string; expiresAt: Date; now: Date }): Promise<boolean> {
  const result = await db.query<{ bound: boolean }>(
    `with bound as (
       update sign_in_companies set grant_id = $2, expires_at = $3 where interaction_uid = $1 returning company_id
     ),
     used as (
       update company_memberships m set last_used_at = $5 from bound where m.user_id = $4 and m.company_id = bound.company_id
     )
     select exists (select 1 from bound) as bound`,
    [input.interactionUid, input.grantId, input.expiresAt, input.userId, input.now],
  );
  return result.rows[0]?.bound === true;
}

/** The company the latest sign-in under `grantId` chose, if the user still belongs to it. */
export async function grantCompany(db: Queryable, grantId: string, userId: string): Promise<Company | undefined> {
  const result = await db.query<Company>(
    `select c.id, c.name from sign_in_companies s join companies c on c.id = s.company_id
     join company_memberships m on m.company_id = c.id and m.user_id = $2
     where s.grant_id = $1 order by s.created_at desc limit 1`,
    [grantId, userId],
  );
  return result.rows[0];
}
