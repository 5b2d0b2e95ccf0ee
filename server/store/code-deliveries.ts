import type { Queryable } from '../db/database.ts';

/** A channel second-factor codes go out by. */
export type CodeChannel = 'email' | 'sms';

/** Where and when a channel's last code went, and the seconds before another may be sent. */
export interface CodeDelivery {
  destination: string;
  sentAt: Date;
  retryAfter: number;
}

const secondsUntil = (at: Date, now: Date) => Math.max(0, Math.ceil((at.getTime() - now.getTime()) / 1000));

/**
 * Claims the right to send a code by `channel`, atomically: it is granted only once the last send's cooldown has
 * passed (or for the first send, or when `force`d because no live code is left), so two quick clicks or two
 * browsers send one code. Returns whether it was granted
 * and the delivery the screen shows (the new one, or the last one while the cooldown runs).
 */
export async function claimDelivery(
  db: Queryable,
  input: { userId: string; channel: CodeChannel; destination: string; now: Date; cooldownSeconds: number; force?: boolean },
): Promise<{ granted: boolean; delivery: CodeDelivery }> {
  const { userId, channel, destination, now } = input;
  const next = new Date(now.getTime() + input.cooldownSeconds * 1000);
  const claimed = await db.query(
    `insert into mfa_code_deliveries (user_id, channel, destination, sent_at, resend_available_at) values ($1, $2, $3, $4, $5)
     on conflict (user_id, channel) do update set destination = excluded.destination, sent_at = excluded.sent_at,
       resend_available_at = excluded.resend_available_at
     where mfa_code_deliveries.resend_available_at <= $4 or mfa_code_deliveries.destination <> excluded.destination or $6`,
    [userId, channel, destination, now, next, input.force === true],
  );
  if (claimed.rowCount === 1) return { granted: true, delivery: { destination, sentAt: now, retryAfter: input.cooldownSeconds } };
  const last = await lastDelivery(db, userId, channel, now);
  return { granted: false, delivery: last ?? { destination, sentAt: now, retryAfter: input.cooldownSeconds } };
}

/** The channel's last delivery, if a code went out by it. */
export async function lastDelivery(db: Queryable, userId: string, channel: CodeChannel, now: Date): Promise<CodeDelivery | undefined> {
  const result = await db.query<{ destination: string; sent_at: Date; resend_available_at: Date }>(
    'select destination, sent_at, resend_available_at from mfa_code_deliveries where user_id = $1 and channel = $2',
    [userId, channel],
  );
  const row = result.rows[0];
  return row && { destination: row.destination, sentAt: new Date(row.sent_at), retryAfter: secondsUntil(new Date(row.resend_available_at), now) };
}
