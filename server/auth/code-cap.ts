import type { Queryable } from '../db/database.ts';
import { LIMITS } from '../limits.ts';
import type { CodePurpose } from './one-time-codes.ts';

const HOUR_MS = 3600 * 1000;

/** The codes of each capped purpose a user may be sent in an hour. */
const CODES_PER_HOUR: Partial<Record<CodePurpose, number>> = {
  mfa_email: LIMITS.MFA_CODES_PER_HOUR,
  mfa_sms: LIMITS.MFA_CODES_PER_HOUR,
  mfa_sms_setup: LIMITS.MFA_CODES_PER_HOUR,
  password_reset: LIMITS.RESET_EMAILS_PER_HOUR,
};

/** A purpose whose hourly cap the user has reached: how many codes went out, and when another may. */
export interface ReachedCap {
  purpose: CodePurpose;
  issued: number;
  until: Date;
}

/**
 * When the user may be sent another code of `purpose`: undefined while under its hourly cap, else the moment the
 * oldest code that keeps the cap full is an hour old.
 */
export async function codeCapEndsAt(db: Queryable, userId: string, purpose: CodePurpose, now: Date): Promise<Date | undefined> {
  const cap = CODES_PER_HOUR[purpose];
  if (cap === undefined) return undefined;
  const result = await db.query<{ created_at: Date }>(
    'select created_at from one_time_codes where user_id = $1 and purpose = $2 and created_at > $3 order by created_at desc limit $4',
    [userId, purpose, new Date(now.getTime() - HOUR_MS), cap],
  );
  const full = result.rows[cap - 1];
  return full ? new Date(new Date(full.created_at).getTime() + HOUR_MS) : undefined;
}

/** Every purpose whose hourly cap the user has reached now (for `sso user show`). */
export async function reachedCodeCaps(db: Queryable, userId: string, now: Date): Promise<ReachedCap[]> {
  const reached: ReachedCap[] = [];
  for (const purpose of Object.keys(CODES_PER_HOUR) as CodePurpose[]) {
    const until = await codeCapEndsAt(db, userId, purpose, now);
    if (until) reached.push({ purpose, issued: CODES_PER_HOUR[purpose] ?? 0, until });
  }
  return reached;
}
