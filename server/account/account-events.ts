import { sendSecurityNotice } from '../auth/security-notices.ts';
import type { SecurityNoticeDetail, SecurityNoticeKind } from '../mail/templates.ts';
import type { Services } from '../services.ts';
import { recordSecurityEvent, type RequestOrigin } from '../store/security-events.ts';
import { findUserById } from '../store/users.ts';

/** What a person did to their own security on the account page or at sign-in, as the audit trail and the notice name it. */
export type AccountEventKind = Extract<SecurityNoticeKind, 'factor_added' | 'factor_removed' | 'recovery_code_used' | 'password_changed' | 'email_changed'>;

/**
 * Records a change to the account's security in the audit trail and mails its owner the security notice (with its
 * "This wasn't me" link). A mail that fails never undoes the change.
 */
export async function recordAccountChange(
  deps: Pick<Services, 'db' | 'mailer' | 'clock' | 'config'>,
  change: { userId: string; kind: AccountEventKind; origin: RequestOrigin; detail?: Record<string, unknown>; notice?: SecurityNoticeDetail },
): Promise<void> {
  await recordSecurityEvent(deps.db, { userId: change.userId, kind: change.kind, at: new Date(deps.clock()), ...change.origin, detail: change.detail ?? {} });
  const user = await findUserById(deps.db, change.userId);
  if (user) await sendSecurityNotice(deps, { user, kind: change.kind, origin: change.origin, detail: change.notice });
}
