import type { Queryable } from '../db/database.ts';
import type { Company } from './companies.ts';

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

/** The company a running sign-in chose, if any. */
export async function signInCompany(db: Queryable, interactionUid: string): Promise<string | undefined> {
  const result = await db.query<{ company_id: string }>('select company_id from sign_in_companies where interaction_uid = $1', [interactionUid]);
  return result.rows[0]?.company_id;
}

/** Binds a finished sign-in's choice to its grant, to live as long as the grant; false when it chose none. */
export async function bindSignInCompany(db: Queryable, input: { interactionUid: string; grantId: string; expiresAt: Date }): Promise<boolean> {
  const result = await db.query('update sign_in_companies set grant_id = $2, expires_at = $3 where interaction_uid = $1', [
    input.interactionUid,
    input.grantId,
    input.expiresAt,
  ]);
  return result.rowCount === 1;
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
