import { markEmailVerified } from '../store/email-verification.ts';
import type { FastifyInstance } from 'fastify';
import { sendInvitation } from '../auth/invitations.ts';
import { hashPassword } from '../auth/passwords.ts';
import { claimRenewal, completeInvitedProfile, findInvitationById, invitationState, redeemInvitation } from '../store/invitations.ts';
import { recordSecurityEvent } from '../store/security-events.ts';
import { setPassword } from '../store/users.ts';
import type { Services } from '../services.ts';
import type { SignInDeps } from '../sign-in/pending-sign-in.ts';
import { ApiError } from '../errors.ts';
import { continueSignIn } from '../sign-in/sign-in-gates.ts';
import { responses, STEP_ANSWER } from './response-schemas.ts';
import { clearCookieWhenFinished } from './transaction-cookie.ts';
import { admitOpenStep, admitStep, type StepDeps } from './step-guard.ts';

/** The same answer whatever the token was. */
const RENEWAL_ANSWER = { type: 'object', properties: { invitation: { type: 'string' } } } as const;

/**
 * `POST invitation/acceptance`: the invitation's password step. The password, the names and the accepted terms
 * (checked against the step's schema) accept the invitation, once; then the sign-in goes on to its next gate.
 * `POST invitation/renewal`: the expired-invitation screen's "send me a new invitation". The fresh link goes only
 * to the invited address, and the answer is the same whatever the token was, so it reveals nothing.
 */
export function invitationRoutes(context: StepDeps & SignInDeps & Pick<Services, 'mailer' | 'passwordPolicy'>) {
  return async (app: FastifyInstance) => {
    app.post('/invitation/acceptance', { schema: { response: responses(STEP_ANSWER) } }, async (request, reply) => {
      const { token, transaction, payload } = await admitStep(context, request, 'invitation/acceptance');
      const invitation = transaction.data.invitation as { id: string } | undefined;
      if (!invitation || !transaction.userId) throw new ApiError('step.out_of_order');
      const password = String(payload.password);
      const unmet = context.passwordPolicy(password);
      if (unmet !== undefined) throw new ApiError('request.invalid', { ...unmet, field: 'password' });
      const now = new Date(context.clock());
      // The password is what accepts the invitation: once, atomically, and only before it expires. The invited
      // account has no password yet, so there is none to compare with, and nothing its owner must be told of.
      if (!(await redeemInvitation(context.db, invitation.id, now))) {
        const found = await findInvitationById(context.db, invitation.id);
        throw new ApiError(found && invitationState(found, now) === 'used' ? 'invitation.used' : 'invitation.expired');
      }
      const userId = transaction.userId;
      await setPassword(context.db, userId, await hashPassword(password), now);
      // The invitation link was mailed to the account's address: following it proved the address.
      await markEmailVerified(context.db, userId, now);
      await completeInvitedProfile(context.db, userId, { firstName: String(payload.firstName), lastName: String(payload.lastName), now });
      await recordSecurityEvent(context.db, {
        userId,
        kind: 'password_changed',
        at: now,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        detail: { reason: 'invitation' },
      });
      return clearCookieWhenFinished(context.config, reply, await continueSignIn(context, { token, transaction, userId }));
    });

    app.post('/invitation/renewal', { schema: { response: responses(RENEWAL_ANSWER) } }, async (request) => {
      const payload = await admitOpenStep(context, request, 'invitation/renewal');
      const dead = await claimRenewal(context.db, String(payload.invitation), new Date(context.clock()));
      if (dead) {
        const { userId, email, companyId, clientId } = dead;
        // In the background, so the answer's timing does not say whether a link was sent.
        sendInvitation(context, { userId, email, companyId, clientId }).catch((error: unknown) => {
          request.log.warn({ err: { message: error instanceof Error ? error.message : String(error) } }, 'renewing an invitation failed');
        });
      }
      return { invitation: 'renewal_requested' };
    });
  };
}
