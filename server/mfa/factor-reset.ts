import type { Queryable } from '../db/database.ts';
import type { FactorKind } from '../store/mfa-factors.ts';
import { revokeAllTrustedDevices } from '../store/trusted-devices.ts';

/**
 * Removes every second factor of the user (confirmed or being set up), with where their codes last went, so the
 * next sign-in sets one up again. Everything that can stand in for a factor (trusted browsers, the recovery codes)
 * goes too, so an operator's reset leaves nothing behind. Answers the kinds of confirmed factors removed.
 */
export async function removeAllSecondFactors(db: Queryable, userId: string): Promise<FactorKind[]> {
  const removed = await db.query<{ kind: FactorKind; confirmed: boolean }>(
    'delete from mfa_factors where user_id = $1 returning kind, confirmed_at is not null as confirmed',
    [userId],
  );
  await db.query('delete from mfa_code_deliveries where user_id = $1', [userId]);
  await db.query('delete from recovery_codes where user_id = $1', [userId]);
  await revokeAllTrustedDevices(db, userId);
  return removed.rows.filter((row) => row.confirmed).map((row) => row.kind).sort();
}
