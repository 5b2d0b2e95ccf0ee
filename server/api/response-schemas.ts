import type { FastifyInstance } from 'fastify';

/** The body of every API error: a stable code, the wording users see and, where a step names it, the precise problem. */
const API_ERROR_SCHEMA = {
  $id: 'apiError',
  type: 'object',
  required: ['error_code', 'error_message'],
  properties: {
    error_code: { type: 'string' },
    error_message: { type: 'string' },
    error_params: { type: 'object', additionalProperties: { type: 'string' } },
  },
} as const;

/** The error body, as a route's response schema refers to it. */
const API_ERROR = { $ref: 'apiError#' } as const;

/** Registers the schemas routes refer to by `$ref`; runs before any route is registered. */
export function addSharedSchemas(app: FastifyInstance): void {
  app.addSchema(API_ERROR_SCHEMA);
}

/**
 * A route's response schemas: `ok` for 200 and the shared error body for every 4xx and 5xx. Fastify serialises
 * with them, and drops any property a schema does not list, so `ok` lists every field the route sends.
 */
export function responses<Ok extends object>(ok: Ok) {
  return { 200: ok, '4xx': API_ERROR, '5xx': API_ERROR } as const;
}

/**
 * A step's answer: the challenge the sign-in (or sign-up, or recovery) is at, with what its screen shows, or where
 * the browser goes once it is over. Each challenge's screen reads its own `parameters`, so they are free-form.
 */
export const STEP_ANSWER = {
  type: 'object',
  properties: {
    challenge: { type: 'string' },
    parameters: { type: 'object', additionalProperties: true },
    redirect_to: { type: 'string' },
  },
} as const;
