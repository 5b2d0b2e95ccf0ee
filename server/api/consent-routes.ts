import type { FastifyInstance } from 'fastify';
import { SERVER_CHALLENGES } from '../flows/challenges.ts';
import { LIMITS } from '../limits.ts';
import { completeConsent, consentRequestOf, declineInteraction } from '../oidc/consent.ts';
import type { SignInDeps } from '../sign-in/pending-sign-in.ts';
import { consentAnswer } from '../sign-in/gates/app-consent.ts';
import { continueSignIn } from '../sign-in/sign-in-gates.ts';
import { rememberConsent } from '../store/app-consents.ts';
import { finishTransaction } from '../store/transactions.ts';
import { ApiError } from '../errors.ts';
import { responses, STEP_ANSWER } from './response-schemas.ts';
import { clearCookieWhenFinished } from './transaction-cookie.ts';
import { admitStep, currentTransaction, type StepDeps } from './step-guard.ts';

const PATH = 'consent';
const DENY_PATH = 'consent/deny';

/**
 * `GET consent` answers what the app asks again (a reload, or a person signed in already who comes straight here);
 * `POST consent` allows the ticked scopes, remembers them for the app and goes on; `POST consent/deny` sends the
 * app `access_denied`. All only while the sign-in is at the consent step.
 */
export function consentRoutes(context: StepDeps & SignInDeps) {
  const rememberUntil = () => new Date(context.clock() + LIMITS.FINISHED_SIGN_IN_TTL * 1000);

  return async (app: FastifyInstance) => {
    app.get(`/${PATH}`, { schema: { response: responses(STEP_ANSWER) } }, async (request) => {
      const transaction = (await currentTransaction(context, request))?.transaction;
      if (!transaction) throw new ApiError('transaction.missing');
      const consent = consentRequestOf(transaction.data);
      if (transaction.challenge !== SERVER_CHALLENGES.CONSENT_REQUIRED || !consent) throw new ApiError('step.out_of_order');
      return consentAnswer(context.db, transaction.clientId, consent);
    });

    app.post(`/${PATH}`, { schema: { response: responses(STEP_ANSWER) } }, async (request, reply) => {
      const { token, transaction, payload } = await admitStep(context, request, PATH);
      const consent = consentRequestOf(transaction.data);
      const userId = transaction.userId;
      if (!consent || !userId) throw new ApiError('step.out_of_order');
      const allowed = consent.scopes.filter((scope) => payload[scope] === true);
      const declined = consent.scopes.filter((scope) => !allowed.includes(scope));
      if (transaction.data.consentOnly === true) {
        // Signed in already: only the grant changes, the sign-in (its factors, acr, auth_time) stays as it was.
        if (!(await finishTransaction(context.db, token, transaction.challenge, rememberUntil()))) throw new ApiError('transaction.missing');
        await rememberConsent(context.db, { userId, clientId: transaction.clientId, allowed, declined });
        const returnTo = await completeConsent(context.provider, transaction.interactionUid, userId, declined);
        if (returnTo === undefined) throw new ApiError('transaction.missing');
        return clearCookieWhenFinished(context.config, reply, { redirect_to: returnTo });
      }
      await rememberConsent(context.db, { userId, clientId: transaction.clientId, allowed, declined });
      const decided = { ...transaction.data, consent: { ...consent, declined } };
      const sign = { token, transaction: { ...transaction, data: decided }, userId, record: { consent: decided.consent } };
      return clearCookieWhenFinished(context.config, reply, await continueSignIn(context, sign));
    });

    app.post(`/${DENY_PATH}`, { schema: { response: responses(STEP_ANSWER) } }, async (request, reply) => {
      const { token, transaction } = await admitStep(context, request, DENY_PATH);
      if (!(await finishTransaction(context.db, token, transaction.challenge, rememberUntil()))) throw new ApiError('transaction.missing');
      const returnTo = await declineInteraction(context.provider, transaction.interactionUid);
      if (returnTo === undefined) throw new ApiError('transaction.missing');
      return clearCookieWhenFinished(context.config, reply, { redirect_to: returnTo });
    });
  };
}
