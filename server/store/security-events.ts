import { LIMITS } from '../limits.ts';
import type { Queryable } from '../db/database.ts';

/** What a security event records. Operator actions name the operator's command in their detail. Each has words on the account page's activity list. */
export const SECURITY_EVENT_KINDS = [
  'sign_in',
  'sign_in_failed',
  'lockout_started',
  'factor_added',
  'factor_removed',
  'recovery_code_used',
  'password_changed',
  'password_reset',
  'password_reset_required',
  'email_changed',
  'session_ended',
  'mfa_reset',
  'account_disabled',
  'account_enabled',
  'account_unlocked',
  'account_viewed',
  'not_me_reported',
  'passkey_clone_warning',
  'app_access_revoked',
] as const;

export type SecurityEventKind = (typeof SECURITY_EVENT_KINDS)[number];

/** Where a request came from: the client address and its browser. */
export interface RequestOrigin {
  ip?: string;
  userAgent?: string;
}

/** One event to record. */
export interface SecurityEventInput extends RequestOrigin {
  /** The account it happened to; null when none is known. */
  userId: string | null;
  kind: SecurityEventKind;
  at: Date;
  /** A few facts that explain it (the client app, the factor's kind, the operator); never a secret. */
  detail?: Record<string, unknown>;
}

/** A recorded event. */
export interface SecurityEvent {
  id: string;
  userId: string | null;
  kind: SecurityEventKind;
  at: Date;
  ip: string | null;
  userAgent: string | null;
  detail: Record<string, unknown>;
}

interface SecurityEventRow {
  id: string;
  user_id: string | null;
  kind: SecurityEventKind;
  occurred_at: Date;
  ip: string | null;
  user_agent: string | null;
  detail: Record<string, unknown>;
}

/** The columns an event is stored in, beside its user, kind and time: the origin (the user agent cut short) and the detail. */
export function eventColumns(event: Pick<SecurityEventInput, 'kind' | 'ip' | 'userAgent' | 'detail'>): { ip: string | null; userAgent: string | null; detail: string } {
  const detail = JSON.stringify(event.detail ?? {});
  // The detail is written by our own code: an oversized one is a programming error, not user input.
  if (detail.length > LIMITS.SECURITY_EVENT_DETAIL_MAX) throw new Error(`security event detail of ${event.kind} is too large`);
  return { ip: event.ip ?? null, userAgent: event.userAgent?.slice(0, LIMITS.SECURITY_EVENT_USER_AGENT_MAX) ?? null, detail };
}

/** Appends an event to the audit trail. */
export async function recordSecurityEvent(db: Queryable, event: SecurityEventInput): Promise<void> {
  const { ip, userAgent, detail } = eventColumns(event);
  await db.query('insert into security_events (user_id, kind, occurred_at, ip, user_agent, detail) values ($1, $2, $3, $4, $5, $6::jsonb)', [
    event.userId,
    event.kind,
    event.at,
    ip,
    userAgent,
    detail,
  ]);
}

/** Which events to list: one user's, since a time, newest first, at most `limit` (LIMITS.SECURITY_EVENTS_LISTED by default). */
export interface SecurityEventQuery {
  userId?: string;
  since?: Date;
  limit?: number;
}

/** The events matching `query`, newest first. */
export async function listSecurityEvents(db: Queryable, query: SecurityEventQuery = {}): Promise<SecurityEvent[]> {
  const result = await db.query<SecurityEventRow>(
    `select id::text as id, user_id, kind, occurred_at, ip, user_agent, detail from security_events
     where ($1::uuid is null or user_id = $1) and ($2::timestamptz is null or occurred_at >= $2)
     order by occurred_at desc, security_events.id desc limit $3`,
    [query.userId ?? null, query.since ?? null, query.limit ?? LIMITS.SECURITY_EVENTS_LISTED],
  );
  return result.rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    kind: row.kind,
    at: new Date(row.occurred_at),
    ip: row.ip,
    userAgent: row.user_agent,
    detail: row.detail,
  }));
}
