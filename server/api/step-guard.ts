import type { FastifyRequest } from 'fastify';
import { decryptFields } from '../auth/credentials.ts';
import type { ServerStep } from '../flows/flow-registry.ts';
import { findTransaction, type SignInTransaction } from '../store/transactions.ts';
import type { Services } from '../services.ts';
import { ApiError } from '../errors.ts';
import { readTransactionCookie } from './transaction-cookie.ts';

/** A request admitted to a step: its transaction, the step, and the decrypted, schema-checked payload. */
export interface AdmittedStep {
  token: string;
  transaction: SignInTransaction;
  step: ServerStep;
  payload: Record<string, unknown>;
}

/** What admitting a request to a step uses: the cookie's transaction, the flows, the credential keys and the bot check. */
export type StepDeps = Pick<Services, 'config' | 'db' | 'clock' | 'keys' | 'flows' | 'botCheck'>;

/** The body field a bot-checked step's submit carries its widget token in; it is not part of the form. */
export const BOT_CHECK_FIELD = 'botCheckToken';

/** Takes the bot-check token out of `body` and, when the bot check is on, has it verified. */
async function checkBot(context: Pick<Services, 'botCheck'>, request: FastifyRequest, step: ServerStep, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (!step.botCheck) return body;
  const { [BOT_CHECK_FIELD]: token, ...form } = body;
  if (context.botCheck && !(typeof token === 'string' && (await context.botCheck.verify(token, request.ip)))) throw new ApiError('bot_check.failed');
  return form;
}

/** Verifies the bot check where the step has one, decrypts the payload's encrypted fields and checks it against the step's schema. */
async function readPayload(context: Pick<Services, 'botCheck' | 'keys' | 'db' | 'clock'>, request: FastifyRequest, step: ServerStep): Promise<Record<string, unknown>> {
  const body = await checkBot(context, request, step, (request.body ?? {}) as Record<string, unknown>);
  const payload = await decryptFields(context, body, step.encrypt);
  const problem = step.validate(payload);
  if (problem !== undefined) throw new ApiError('request.invalid', problem);
  return payload;
}

/** Admits a request to a step the flows declare open (no transaction), such as password recovery. */
export async function admitOpenStep(context: Pick<Services, 'botCheck' | 'keys' | 'db' | 'clock' | 'flows'>, request: FastifyRequest, callPath: string): Promise<Record<string, unknown>> {
  const step = context.flows.openStepFor(callPath);
  if (!step) throw new ApiError('step.not_available');
  return readPayload(context, request, step);
}

/** The live sign-in transaction this browser's cookie points at, with the cookie's token; undefined if none. */
export async function currentTransaction(
  context: Pick<Services, 'config' | 'db' | 'clock'>,
  request: FastifyRequest,
): Promise<{ token: string; transaction: SignInTransaction } | undefined> {
  const token = readTransactionCookie(context.config, request);
  const transaction = token && (await findTransaction(context.db, token, new Date(context.clock())));
  return token && transaction ? { token, transaction } : undefined;
}

/**
 * Admits a request to the step behind `callPath` only if the browser's transaction has reached a challenge
 * that step answers; then decrypts its encrypted fields and checks the payload against the step's schema.
 */
export async function admitStep(context: StepDeps, request: FastifyRequest, callPath: string): Promise<AdmittedStep> {
  const current = await currentTransaction(context, request);
  if (!current) throw new ApiError('transaction.missing');
  const { token, transaction } = current;
  const step = context.flows.stepFor(callPath, transaction.challenge, request.method === 'GET' ? 'GET' : 'POST');
  if (!step) throw new ApiError('step.out_of_order');
  return { token, transaction, step, payload: await readPayload(context, request, step) };
}
