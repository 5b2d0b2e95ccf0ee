import type { FastifyInstance } from 'fastify';
import { mergePendingAttributes } from '../store/registrations.ts';
import { currentRegistration, registrationAnswer } from '../sign-in/registration-state.ts';
import { responses, STEP_ANSWER } from './response-schemas.ts';
import { withRetryAfter } from './retry-after.ts';
import { admitStep, type StepDeps } from './step-guard.ts';

/** The call path prefix of a step whose fields are profile attributes; the step's id follows it. */
export const ATTRIBUTES_PATH = 'register/attributes';

/**
 * `POST register/attributes/{step}`: any step whose call is this path is a profile step. Its payload, checked
 * against that step's own form schema, is kept as profile attributes of the sign-up in progress and lands in the
 * account's `attributes` when the address is verified. So a new profile step (job details) is flows/ and
 * schemas/ only. Outside a sign-up in progress the step is out of order.
 */
export function profileAttributesRoutes(context: StepDeps) {
  return async (app: FastifyInstance) => {
    app.post<{ Params: { step: string } }>(`/${ATTRIBUTES_PATH}/:step`, { schema: { response: responses(STEP_ANSWER) } }, async (request, reply) => {
      const { transaction, payload } = await admitStep(context, request, `${ATTRIBUTES_PATH}/${request.params.step}`);
      const now = new Date(context.clock());
      const pending = await currentRegistration(context, transaction, now);
      await mergePendingAttributes(context.db, pending.id, payload);
      return withRetryAfter(reply, registrationAnswer(pending, now));
    });
  };
}
