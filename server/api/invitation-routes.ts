import type { FastifyInstance } from 'fastify';
import { sendInvitation } from '../auth/invitations.ts';
import { claimRenewal } from '../store/invitations.ts';
import type { Services } from '../services.ts';
import { responses } from './response-schemas.ts';
import { admitOpenStep, type StepDeps } from './step-guard.ts';

/** The same answer whatever the token was. */
const RENEWAL_ANSWER = { type: 'object', properties: { invitation: { type: 'string' } } } as const;

/**
 * `POST invitation/renewal`: the expired-invitation screen's "send me a new invitation". The fresh link goes only
 * to the invited address, and the answer is the same whatever the token was, so it reveals nothing.
 */
export function invitationRoutes(context: StepDeps & Pick<Services, 'mailer'>) {
  return async (app: FastifyInstance) => {
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
