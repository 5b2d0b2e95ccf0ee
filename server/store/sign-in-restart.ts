import type { Queryable } from '../db/database.ts';
import { sha256 } from '../crypto/hash.ts';
import { TRANSACTION_COLUMNS, toTransaction, type SignInTransaction, type TransactionRow } from './transactions.ts';

/**
 * Whether a sign-in at its second factor may start again at the password (the person went Back to the login screen):
 * only a plain sign-in (no sign-up, no invitation) that has passed no second factor yet, so a second password can never
 * inherit a factor the first one proved.
 */
export function restartable(transaction: SignInTransaction): boolean {
  const { data } = transaction;
  return data.registration === undefined && data.invitation === undefined && data.mfaPassed !== true && data.recoveryCodeUsed === undefined;
}

/**
 * Puts a sign-in that is still at `from` back at the password, keeping only where it came from (`origin`): every
 * trace of the factor in progress goes. Atomic, and only under the same conditions as `restartable`; undefined when
 * the sign-in has moved on or may not start again.
 */
export async function restartAtPassword(db: Queryable, token: string, from: string, passwordChallenge: string): Promise<SignInTransaction | undefined> {
  const result = await db.query<TransactionRow>(
    `update transactions set challenge = $3, user_id = null, steps = '{}',
       data = case when data ? 'origin' then jsonb_build_object('origin', data->'origin') else '{}'::jsonb end
     where token_hash = $1 and challenge = $2
       and not (data ? 'registration') and not (data ? 'invitation') and not (data ? 'recoveryCodeUsed')
       and coalesce(data->'mfaPassed', 'false'::jsonb) <> 'true'::jsonb
     returning ${TRANSACTION_COLUMNS}`,
    [sha256(token), from, passwordChallenge],
  );
  const row = result.rows[0];
  return row ? toTransaction(row) : undefined;
}
