import type { Queryable } from '../db/database.ts';
import { lockUserRow } from './users.ts';

/**
 * How many email-change mails the account sent since `since` (each is an `email_change` code, whether it went to
 * the new address or a warning went to a taken one's owner), and the oldest. Locks the account's row first, so
 * concurrent requests count one after another; call it inside the transaction that issues the code.
 */
export async function emailChangeMailsSince(tx: Queryable, userId: string, since: Date): Promise<{ count: number; oldest: Date | undefined }> {
  // The code just inserted holds the row's KEY SHARE lock (its foreign key): lockUserRow's lock queues the requests.
  await lockUserRow(tx, userId);
  const result = await tx.query<{ count: string | number; oldest: Date | null }>(
    "select count(*) as count, min(created_at) as oldest from one_time_codes where user_id = $1 and purpose = 'email_change' and created_at > $2",
    [userId, since],
  );
  const row = result.rows[0];
  return { count: Number(row?.count ?? 0), oldest: row?.oldest ? new Date(row.oldest) : undefined };
}
