import type { FastifyError, FastifyInstance } from 'fastify';
import { LIMITS } from '../config.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { ApiError } from './errors.ts';

/** Fastify's own error codes for bad input, mapped to ours. */
const FASTIFY_CODES: Record<string, ApiError['code']> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'request.too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'request.unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'request.invalid',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'request.invalid',
  FST_ERR_CTP_INVALID_JSON_BODY: 'request.invalid',
};

function toApiError(error: FastifyError | ApiError | Error): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnavailable(error)) return new ApiError('server.unavailable', undefined, { retryAfter: LIMITS.UNAVAILABLE_RETRY_AFTER });
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) return new ApiError('request.invalid', `The request is not valid: ${fastifyError.message}.`);
  const mapped = fastifyError.code && FASTIFY_CODES[fastifyError.code];
  if (mapped) return new ApiError(mapped);
  if (fastifyError.statusCode === 413) return new ApiError('request.too_large');
  if (fastifyError.statusCode === 415) return new ApiError('request.unsupported_media_type');
  if (fastifyError.statusCode !== undefined && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) return new ApiError('request.invalid');
  return undefined;
}

/**
 * Every error becomes `{ error_code, error_message }`; bad input is a 4xx, never a stack trace or a 500. A database
 * out of reach is a 503, and every 429 and 503 says when to come back (`Retry-After`, in seconds).
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    const apiError = toApiError(error);
    if (apiError) {
      if (apiError.retryAfter !== undefined) reply.header('retry-after', String(apiError.retryAfter));
      reply.code(apiError.status).send(apiError.toBody());
      return;
    }
    request.log.error({ err: { type: error.name, message: error.message, stack: error.stack } }, 'unexpected error');
    const fallback = new ApiError('server.error');
    reply.code(fallback.status).send(fallback.toBody());
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if ((reply.statusCode === 429 || reply.statusCode === 503) && !reply.hasHeader('retry-after')) {
      reply.header('retry-after', String(LIMITS.UNAVAILABLE_RETRY_AFTER));
    }
    return payload;
  });
}
