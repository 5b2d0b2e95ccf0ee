import type { Queryable } from '../db/database.ts';

/** Records that the demo session `subject` (a client app and its provider session id) was logged out; kept until `expiresAt`. */
export async function recordDemoLogout(db: Queryable, subject: string, now: Date, expiresAt: Date): Promise<void> {
  await db.query(
    `insert into demo_logouts (subject, logged_out_at, expires_at) values ($1, $2, $3)
     on conflict (subject) do update set logged_out_at = excluded.logged_out_at, expires_at = excluded.expires_at`,
    [subject, now, expiresAt],
  );
}

/** Whether the demo session `subject` was logged out through the back channel. */
export async function isDemoLoggedOut(db: Queryable, subject: string): Promise<boolean> {
  return (await db.query('select 1 from demo_logouts where subject = $1', [subject])).rowCount > 0;
}
