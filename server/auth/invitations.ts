import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import { LIMITS } from '../limits.ts';
import type { Database, Queryable } from '../db/database.ts';
import { invitationMail } from '../mail/invitation-mail.ts';
import type { Mailer } from '../mail/mailer.ts';
import { findCompanyById } from '../store/companies.ts';
import { createInvitation } from '../store/invitations.ts';

/** What issuing an invitation needs. */
export interface InvitationDeps {
  db: Database;
  mailer: Mailer;
  config: Pick<Config, 'publicUrl'>;
  clock: Clock;
}

/** The link in an invitation email: always built from PUBLIC_URL, never from a request's Host header. */
export function invitationLink(publicUrl: string, token: string): string {
  const url = new URL('/auth/login', publicUrl);
  url.searchParams.set('invitation', token);
  return url.href;
}

/** Issues a fresh invitation for the user and emails its link; the token exists only in that email. */
export async function sendInvitation(
  deps: InvitationDeps,
  input: { userId: string; email: string; companyId: string | null; clientId: string },
): Promise<{ expiresAt: Date }> {
  const now = new Date(deps.clock());
  const expiresAt = new Date(now.getTime() + LIMITS.INVITATION_TTL * 1000);
  const company = input.companyId === null ? undefined : await findCompanyById(deps.db, input.companyId);
  // The invitation and its email commit together: no invitation without its mail, no mail for a rolled-back one.
  await deps.db.transaction(async (tx) => {
    const token = await createInvitation(tx, { userId: input.userId, companyId: input.companyId, clientId: input.clientId, now, expiresAt });
    const link = invitationLink(deps.config.publicUrl, token);
    await deps.mailer.send(invitationMail(input.email, { link, companyName: company?.name, days: LIMITS.INVITATION_TTL / 86400 }), tx);
  });
  return { expiresAt };
}
