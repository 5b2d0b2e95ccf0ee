import type { AppAccessSummary } from '../../contract/account-api.ts';
import type { Queryable } from '../db/database.ts';
import { deleteGrants } from './provider-sessions.ts';

/** An app a person allowed, as the account page lists it. */
export type AppConsent = AppAccessSummary;

/** The scopes the person allowed `clientId` (none remembered: an empty list). */
export async function rememberedScopes(db: Queryable, userId: string, clientId: string): Promise<string[]> {
  const result = await db.query<{ scopes: string[] }>('select scopes from app_consents where user_id = $1 and client_id = $2', [userId, clientId]);
  return result.rows[0]?.scopes ?? [];
}

/** Remembers what the person just allowed (with what they allowed before) and forgets what they just declined. */
export async function rememberConsent(db: Queryable, consent: { userId: string; clientId: string; allowed: readonly string[]; declined: readonly string[] }): Promise<void> {
  await db.query(
    `insert into app_consents (user_id, client_id, scopes) values ($1, $2, $3)
     on conflict (user_id, client_id) do update set granted_at = now(),
       scopes = array(select distinct s from unnest(app_consents.scopes || excluded.scopes) s where s <> all($4::text[]) order by s)`,
    [consent.userId, consent.clientId, [...new Set(consent.allowed)].sort(), [...consent.declined]],
  );
}

/** Every app the person allowed, most recent first. */
export async function listConsents(db: Queryable, userId: string): Promise<AppConsent[]> {
  const result = await db.query<{ client_id: string; name: string; scopes: string[]; granted_at: Date | string }>(
    `select c.client_id, l.name, c.scopes, c.granted_at from app_consents c join clients l on l.client_id = c.client_id
     where c.user_id = $1 order by c.granted_at desc, c.client_id`,
    [userId],
  );
  return result.rows.map((row) => ({ clientId: row.client_id, clientName: row.name, scopes: row.scopes, grantedAt: new Date(row.granted_at).toISOString() }));
}

/**
 * Takes an app's access away: forgets the consent and deletes every grant the app holds for the person, with its
 * codes and tokens, so its refresh tokens stop working at once and its next sign-in asks again. False when the
 * person had not allowed the app.
 */
export async function revokeConsent(db: Queryable, userId: string, clientId: string): Promise<boolean> {
  const removed = await db.query('delete from app_consents where user_id = $1 and client_id = $2', [userId, clientId]);
  if (removed.rowCount === 0) return false;
  const grants = await db.query<{ id: string }>(
    "select id from oidc_payloads where model = 'Grant' and payload->>'accountId' = $1 and payload->>'clientId' = $2",
    [userId, clientId],
  );
  await deleteGrants(db, userId, grants.rows.map((row) => row.id));
  return true;
}
