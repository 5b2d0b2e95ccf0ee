import { LIMITS } from '../limits.ts';
import type { ConsentRequest } from '../oidc/consent.ts';
import { SERVER_CHALLENGES } from '../flows/challenges.ts';
import type { Services } from '../services.ts';
import { findInvitation, isUsable } from '../store/invitations.ts';
import type { SignInTrust } from '../auth/trusted-devices.ts';
import type { RequestOrigin } from '../store/security-events.ts';
import { advanceTransaction, createTransaction, recordInTransaction } from '../store/transactions.ts';

/**
 * Starts the sign-in transaction of an authorization request that needs the user, at the login step, and answers
 * its token. A usable invitation link starts it at choosing a password instead. The browser's `origin` is kept with
 * it, for the security events its steps record (see signInOrigin).
 */
export async function startSignIn(
  deps: Pick<Services, 'db' | 'clock'>,
  start: {
    interactionUid: string;
    clientId: string;
    invitation: string | undefined;
    origin?: RequestOrigin & { browserHash?: string };
    trust?: SignInTrust;
    /** What the app asks the person to allow (the consent gate reads it). */
    consent?: ConsentRequest;
  },
): Promise<string> {
  const expiresAt = new Date(deps.clock() + LIMITS.TRANSACTION_TTL * 1000);
  const token = await createTransaction(deps.db, {
    interactionUid: start.interactionUid,
    clientId: start.clientId,
    challenge: SERVER_CHALLENGES.LOGIN_REQUIRED,
    expiresAt,
    data: { origin: { ip: start.origin?.ip, userAgent: start.origin?.userAgent, browserHash: start.origin?.browserHash }, trust: start.trust, consent: start.consent },
  });
  const invitation = start.invitation === undefined ? undefined : await findInvitation(deps.db, start.invitation);
  if (invitation && isUsable(invitation, new Date(deps.clock()))) {
    // The link proves the mailbox, not the person: the sign-in starts at choosing a password, which redeems it.
    const challenge = SERVER_CHALLENGES.NEW_PASSWORD_REQUIRED;
    await advanceTransaction(deps.db, token, SERVER_CHALLENGES.LOGIN_REQUIRED, { challenge, userId: invitation.userId });
    await recordInTransaction(deps.db, token, challenge, { invitation: { id: invitation.id, email: invitation.email } });
  }
  return token;
}

/**
 * Starts the transaction of an authorization request that only needs consent (the person is signed in already, and
 * the app asks for more than they allowed, or sent prompt=consent): it starts at the consent step, for that person.
 */
export async function startConsent(
  deps: Pick<Services, 'db' | 'clock'>,
  start: { interactionUid: string; clientId: string; userId: string; consent: ConsentRequest; origin?: RequestOrigin & { browserHash?: string } },
): Promise<string> {
  const token = await startSignIn(deps, { ...start, invitation: undefined });
  const challenge = SERVER_CHALLENGES.CONSENT_REQUIRED;
  await advanceTransaction(deps.db, token, SERVER_CHALLENGES.LOGIN_REQUIRED, { challenge, userId: start.userId, record: { consentOnly: true } });
  return token;
}
