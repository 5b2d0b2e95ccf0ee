import { revokeAllTrustedDevices } from '../store/trusted-devices.ts';
import type { Config } from '../config.ts';
import { LIMITS } from '../limits.ts';
import type { Clock } from '../clock.ts';
import { randomToken } from '../crypto/hash.ts';
import type { Queryable } from '../db/database.ts';
import type { Mailer } from '../mail/mailer.ts';
import { securityNoticeMail, type SecurityNoticeDetail, type SecurityNoticeKind } from '../mail/templates.ts';
import { restoreEmail } from '../store/email-changes.ts';
import { recordSecurityEvent, type RequestOrigin } from '../store/security-events.ts';
import { claimNoticeLink, endNoticeLinksSentElsewhere, findLiveNoticeLink, insertNoticeLink } from '../store/security-notice-links.ts';
import { requirePasswordResetById } from '../store/users.ts';
import { endSessions, type SessionDeps } from './sessions.ts';
import { agentLabel } from './user-agent.ts';

/** What sending a notice uses. */
export interface NoticeDeps {
  db: Queryable;
  mailer: Mailer;
  clock: Clock;
  config: Pick<Config, 'publicUrl'>;
  /** Told when the mail could not be sent; the event that caused it stands regardless. */
  onMailFailure?: (error: unknown) => void;
}

/** Where the "This wasn't me" step lives in the web app; the token rides in the query. */
const NOT_ME_PATH = '/auth/not-me';

/** The web app's password recovery. */
const FORGOT_PASSWORD_PATH = '/auth/forgot-password';

/** A "This wasn't me" link made for a notice: its token (only its hash is kept), and when it was made and expires. */
export interface NoticeLink {
  token: string;
  now: Date;
  expiresAt: Date;
}

/** How long a notice's link works: an email change can be undone for longer than other notices can be reported. */
function linkTtl(kind: SecurityNoticeKind): number {
  return kind === 'email_changed' ? LIMITS.EMAIL_CHANGE_REVERT_TTL : LIMITS.NOT_ME_LINK_TTL;
}

/** A new "This wasn't me" link for a notice of `kind`; the caller stores it (insertNoticeLink) before mailing it. */
export function newNoticeLink(deps: Pick<NoticeDeps, 'clock'>, kind: SecurityNoticeKind = 'new_browser'): NoticeLink {
  const now = new Date(deps.clock());
  return { token: randomToken(32), now, expiresAt: new Date(now.getTime() + linkTtl(kind) * 1000) };
}

/**
 * Emails the account's owner that `kind` just happened (from `origin`, if known), with a "This wasn't me" link. The
 * link is stored, with the address it goes to, before the mail goes; the mail itself goes in the background.
 */
export async function sendSecurityNotice(
  deps: NoticeDeps,
  notice: { user: { id: string; email: string }; kind: SecurityNoticeKind; origin?: RequestOrigin; detail?: SecurityNoticeDetail },
): Promise<void> {
  const link = newNoticeLink(deps, notice.kind);
  await insertNoticeLink(deps.db, { ...link, userId: notice.user.id, notice: notice.kind, sentTo: notice.user.email });
  mailSecurityNotice(deps, notice, link);
}

/** Emails a notice whose link is already stored (see sendSecurityNotice); `via` writes it with the caller's statement or batch. */
export function mailSecurityNotice(
  deps: Omit<NoticeDeps, 'db' | 'clock'>,
  notice: { user: { id: string; email: string }; kind: SecurityNoticeKind; origin?: RequestOrigin; detail?: SecurityNoticeDetail },
  link: NoticeLink,
  via?: Queryable,
): void {
  const notMeUrl = new URL(`${NOT_ME_PATH}?${new URLSearchParams({ token: link.token })}`, deps.config.publicUrl).href;
  const message = securityNoticeMail(notice.user.email, {
    kind: notice.kind,
    at: link.now,
    ip: notice.origin?.ip,
    browser: agentLabel(notice.origin?.userAgent),
    notMeUrl,
    resetUrl: new URL(FORGOT_PASSWORD_PATH, deps.config.publicUrl).href,
    linkDays: Math.round((link.expiresAt.getTime() - link.now.getTime()) / 86_400_000),
    ...notice.detail,
  });
  deps.mailer.send(message, via).catch((error: unknown) => deps.onMailFailure?.(error));
}

/** Whether the "This wasn't me" link still works (unused, unexpired); changes nothing. */
export async function isNoticeLinkLive(db: Queryable, token: string, now: Date): Promise<boolean> {
  return (await findLiveNoticeLink(db, token, now)) !== undefined;
}

/**
 * "This wasn't me", confirmed: uses the notice's link up (once), puts back the address the notice was mailed to if
 * it has changed since (so the password reset that follows goes to that mailbox), signs the account out everywhere
 * (every client app with a back-channel logout endpoint is told), makes the next sign-in go through password
 * recovery, and records it in the audit trail for the operator. False when the link is unknown, used or expired.
 */
export async function reportNotMe(deps: SessionDeps, token: string, origin: RequestOrigin): Promise<boolean> {
  const now = new Date(deps.clock());
  const link = await claimNoticeLink(deps.db, token, now);
  if (!link) return false;
  const restored = link.sentTo === null ? false : await restoreEmail(deps.db, link.userId, link.sentTo);
  if (link.sentTo !== null) await endNoticeLinksSentElsewhere(deps.db, link.userId, link.sentTo, now);
  await endSessions(deps, { userId: link.userId, which: { all: true }, reason: 'not_me', origin });
  await revokeAllTrustedDevices(deps.db, link.userId);
  await requirePasswordResetById(deps.db, link.userId);
  await recordSecurityEvent(deps.db, { userId: link.userId, kind: 'not_me_reported', at: now, ...origin, detail: { notice: link.notice, ...(restored ? { email_restored: true } : {}) } });
  return true;
}
