import type { Queryable } from '../db/database.ts';
import { recoveryCodesLeft } from '../store/recovery-codes.ts';

/**
 * Whether the person proving a second factor has a recovery code left, in a sign-in step's parameters: the screens
 * offer "Use a recovery code" only then (a link's `when` in the flows), so nobody is sent to a code they never had.
 */
export async function recoveryCodeHint(db: Queryable, userId: string): Promise<{ has_recovery_codes: boolean }> {
  return { has_recovery_codes: (await recoveryCodesLeft(db, userId)).left > 0 };
}
