import type { Queryable } from '../db/database.ts';
import { recoveryCodesLeft } from '../store/recovery-codes.ts';
import type { SignInState } from '../store/sign-in-state.ts';

/**
 * Whether the person proving a second factor has a recovery code left, in a sign-in step's parameters: the screens
 * offer "Use a recovery code" only then (a link's `when` in the flows), so nobody is sent to a code they never had.
 * A sign-in that read its SignInState in this request (`known`) already holds the count: no round trip then.
 */
export async function recoveryCodeHint(db: Queryable, sign: { userId: string; known?: Pick<SignInState, 'recoveryCodesLeft'> }): Promise<{ has_recovery_codes: boolean }> {
  const left = sign.known ? sign.known.recoveryCodesLeft : (await recoveryCodesLeft(db, sign.userId)).left;
  return { has_recovery_codes: left > 0 };
}
