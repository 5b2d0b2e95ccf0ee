import type { FastifyInstance, FastifyRequest } from 'fastify';
import { pickerAnswer, settleCompany } from '../companies/company-choice.ts';
import { SERVER_CHALLENGES } from '../flows/challenges.ts';
import { membershipsOf } from '../store/companies.ts';
import type { SignInDeps } from '../sign-in/pending-sign-in.ts';
import { ApiError } from '../errors.ts';
import { continueSignIn } from '../sign-in/sign-in-gates.ts';
import { responses, STEP_ANSWER } from './response-schemas.ts';
import { clearCookieWhenFinished } from './transaction-cookie.ts';
import { admitStep, currentTransaction, type StepDeps } from './step-guard.ts';

const PATH = 'company-management/companies';

const querySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { registration: { type: 'string', enum: ['true', 'false'] } },
} as const;

/**
 * A sign-up asks with `?registration=true`. Whether the picker belongs to a sign-up is the transaction's to say (the
 * server set it), so the query decides nothing; it is only refused where it contradicts a sign-in.
 */
function checkRegistration(request: FastifyRequest<{ Querystring: { registration?: string } }>, data: Record<string, unknown>): void {
  if (request.query.registration === 'true' && data.registration !== true) throw new ApiError('step.out_of_order');
}

/**
 * `GET company-management/companies` lists the companies the signing-in (or signing-up) user may act for, the
 * last used first; `POST` picks one and the sign-in goes on. Both only while the transaction is at the picker.
 */
export function companyRoutes(context: StepDeps & SignInDeps) {
  return async (app: FastifyInstance) => {
    app.get<{ Querystring: { registration?: string } }>(`/${PATH}`, { schema: { querystring: querySchema, response: responses(STEP_ANSWER) } }, async (request) => {
      const current = await currentTransaction(context, request);
      if (!current) throw new ApiError('transaction.missing');
      const { transaction } = current;
      if (transaction.challenge !== SERVER_CHALLENGES.MULTIPLE_COMPANIES_REGISTRATION || !transaction.userId) throw new ApiError('step.out_of_order');
      checkRegistration(request, transaction.data);
      return pickerAnswer(await membershipsOf(context.db, transaction.userId));
    });

    app.post<{ Querystring: { registration?: string } }>(`/${PATH}`, { schema: { querystring: querySchema, response: responses(STEP_ANSWER) } }, async (request, reply) => {
      const { token, transaction, payload } = await admitStep(context, request, PATH);
      checkRegistration(request, transaction.data);
      // The flag removes the picker on the server, not only on the screen: no choice is taken while it is on.
      if (context.flags.isOn('company-selection-removal') || !transaction.userId) throw new ApiError('step.out_of_order');
      const userId = transaction.userId;
      const chosen = (await membershipsOf(context.db, userId)).find((company) => company.id === payload.company);
      if (!chosen) throw new ApiError('company.unknown');
      const sign = { token, transaction, userId };
      await settleCompany(context, sign, chosen.id);
      return clearCookieWhenFinished(context.config, reply, await continueSignIn(context, sign));
    });
  };
}
