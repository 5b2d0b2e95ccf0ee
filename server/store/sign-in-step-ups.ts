import type { Queryable } from '../db/database.ts';

/** Notes that the sign-in behind `grantId` proved a second factor at `now`: it counts as a step-up until `expiresAt`. */
export async function recordSignInStepUp(db: Queryable, input: { grantId: string; userId: string; now: Date; expiresAt: Date }): Promise<void> {
  await db.query(
    `insert into sign_in_step_ups (grant_id, user_id, verified_at, expires_at) values ($1, $2, $3, $4)
     on conflict (grant_id) do update set user_id = excluded.user_id, verified_at = excluded.verified_at, expires_at = excluded.expires_at`,
    [input.grantId, input.userId, input.now, input.expiresAt],
  );
}

/** When the sign-in behind `grantId` last proved a second factor, if it did. */
export async function signInStepUpAt(db: Queryable, grantId: string, userId: string): Promise<Date | undefined> {
  const result = await db.query<{ verified_at: Date }>('select verified_at from sign_in_step_ups where grant_id = $1 and user_id = $2', [grantId, userId]);
  return result.rows[0] ? new Date(result.rows[0].verified_at) : undefined;
}
