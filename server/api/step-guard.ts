import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database.ts';
import { decryptFields, openFields } from '../auth/credentials.ts';
import type { FlowRegistry, ServerStep } from '../flows/flow-registry.ts';
import { journeyAdmits } from '../../contract/flow-graph.ts';
import { enterStep, findTransaction, findTransactionUsingNonce, type SignInTransaction } from '../store/transactions.ts';
import type { Services } from '../services.ts';
import { ApiError } from '../errors.ts';
import { readTransactionCookie } from './transaction-cookie.ts';

/** A request admitted to a step: its transaction, the step, and the decrypted, schema-checked payload. */
export interface AdmittedStep<Extra = never> {
  token: string;
  transaction: SignInTransaction;
  step: ServerStep;
  payload: Record<string, unknown>;
  /** What the step's TransactionReader read with the transaction; absent when the transaction was read with its credential nonce instead. */
  extra?: Extra;
}

/** Reads the live transaction a cookie token points at, with what one step reads about it (`extra`) in the same round trip. */
export type TransactionReader<Extra> = (db: Queryable, token: string, now: Date) => Promise<{ transaction: SignInTransaction; extra: Extra } | undefined>;

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
  return validated(step, await decryptFields(context, body, step.encrypt));
}

function validated(step: ServerStep, payload: Record<string, unknown>): Record<string, unknown> {
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

/** The fields every step behind one call encrypts, and the challenges those steps answer. */
interface EncryptingCall {
  fields: readonly string[];
  challenges: readonly string[];
}

const encryptingCalls = new WeakMap<FlowRegistry, Map<string, EncryptingCall | null>>();

/**
 * The call's encrypting steps, when every step behind it that needs a transaction encrypts the same fields (so the
 * fields can be opened before the transaction says which step it is); null when none encrypts or they differ.
 */
function encryptingCall(flows: FlowRegistry, callPath: string, method: 'GET' | 'POST'): EncryptingCall | null {
  const known = encryptingCalls.get(flows) ?? new Map<string, EncryptingCall | null>();
  encryptingCalls.set(flows, known);
  const key = `${method} ${callPath}`;
  const cached = known.get(key);
  if (cached !== undefined) return cached;
  const challenges = [...flows.challenges()].filter((challenge) => flows.stepFor(callPath, challenge, method));
  const fieldLists = new Set(challenges.map((challenge) => JSON.stringify(flows.stepFor(callPath, challenge, method)?.encrypt ?? [])));
  const [only] = fieldLists;
  const fields = fieldLists.size === 1 && only !== undefined ? (JSON.parse(only) as string[]) : [];
  const call = fields.length > 0 ? { fields, challenges } : null;
  known.set(key, call);
  return call;
}

/**
 * The step behind the call that the sign-in may call now: one that answers its challenge, where the flow graph lets its
 * current step lead (contract/flow-graph.ts); else 409 and nothing changes. A step the server's answer did not name
 * (one reached by a link or a `next` rule at the same challenge) becomes the sign-in's current step.
 */
async function journeyStep(context: StepDeps, token: string, transaction: SignInTransaction, callPath: string, method: 'GET' | 'POST'): Promise<ServerStep> {
  const { graph } = context.flows;
  const candidates = context.flows.stepsFor(callPath, transaction.challenge, method);
  const current = transaction.steps.at(-1);
  const journey = { challenge: transaction.challenge, steps: transaction.steps };
  const step = candidates.find(({ id }) => id === current) ?? candidates.find(({ id }) => journeyAdmits(graph, journey, id));
  if (!step) throw new ApiError('step.out_of_order');
  if (step.id !== current && !graph.steps[step.id]?.claims.includes(transaction.challenge)) await enterStep(context.db, token, transaction.steps, step.id);
  return step;
}

/**
 * Admits a request to the step behind `callPath` only if the browser's transaction has reached a challenge
 * that step answers and its current step leads there (journeyStep); then decrypts its encrypted fields and checks the payload against the step's schema.
 * Where the call's fields can be opened first, the transaction is read and their nonce used up in one round trip.
 */
export async function admitStep<Extra = never>(context: StepDeps, request: FastifyRequest, callPath: string, reader?: TransactionReader<Extra>): Promise<AdmittedStep<Extra>> {
  const token = readTransactionCookie(context.config, request);
  if (!token) throw new ApiError('transaction.missing');
  const method = request.method === 'GET' ? 'GET' : 'POST';
  const call = encryptingCall(context.flows, callPath, method);
  const body = (request.body ?? {}) as Record<string, unknown>;
  // Unreadable fields are told only after the transaction and the step are checked, as when they are opened later.
  const opening = call && (await openFields(context.keys, body, call.fields).catch((error: unknown) => ({ error })));
  const now = new Date(context.clock());
  if (!opening || 'error' in opening || opening.nonce === undefined) {
    const read = reader ? await reader(context.db, token, now) : await findTransaction(context.db, token, now).then((transaction) => transaction && { transaction });
    if (!read) throw new ApiError('transaction.missing');
    const step = await journeyStep(context, token, read.transaction, callPath, method);
    return { token, ...read, step, payload: await readPayload(context, request, step) };
  }
  const found = await findTransactionUsingNonce(context.db, token, now, opening.nonce, call.challenges);
  if (!found) throw new ApiError('transaction.missing');
  const { transaction, nonceUsed } = found;
  const step = await journeyStep(context, token, transaction, callPath, method);
  // The nonce is already used up here (the bot check used to come first): a refused bot check costs the browser a
  // fresh nonce, which the web app fetches for every submit anyway.
  const form = await checkBot(context, request, step, body);
  if (!nonceUsed) throw new ApiError('credentials.unreadable');
  const opened = Object.fromEntries(call.fields.filter((field) => field in opening.opened).map((field) => [field, opening.opened[field]]));
  return { token, transaction, step, payload: validated(step, { ...form, ...opened }) };
}
