import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { LIMITS } from '../limits.ts';
import { Argon2QueueFullError } from '../auth/argon2-gate.ts';
import { UnstorableValueError } from '../db/database.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { UNSTORABLE_INPUT_MESSAGE } from '../web/unstorable-input.ts';
import { ApiError } from '../errors.ts';

/** Fastify's own error codes for bad input, mapped to ours. */
const FASTIFY_CODES: Record<string, ApiError['code']> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'request.too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'request.unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'request.invalid',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'request.invalid',
  FST_ERR_CTP_INVALID_JSON_BODY: 'request.invalid',
  FST_ERR_BAD_URL: 'request.invalid',
  FST_ERR_MAX_PARAM_LENGTH: 'request.uri_too_long',
};

/** Other 4xx statuses Fastify (or a plugin) may raise, mapped by status. */
const STATUS_CODES: Record<number, ApiError['code']> = {
  404: 'request.not_found',
  405: 'request.method_not_allowed',
  408: 'request.timeout',
  413: 'request.too_large',
  414: 'request.uri_too_long',
  415: 'request.unsupported_media_type',
  431: 'request.headers_too_large',
};

function toApiError(error: FastifyError | ApiError | Error): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof UnstorableValueError) return new ApiError('request.invalid', UNSTORABLE_INPUT_MESSAGE);
  if (isDatabaseUnavailable(error)) return new ApiError('server.unavailable', undefined, { retryAfter: LIMITS.UNAVAILABLE_RETRY_AFTER });
  if (error instanceof Argon2QueueFullError) return new ApiError('server.unavailable', undefined, { retryAfter: LIMITS.OVERLOAD_RETRY_AFTER });
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) return new ApiError('request.invalid', `The request is not valid: ${fastifyError.message}.`);
  const mapped = fastifyError.code && FASTIFY_CODES[fastifyError.code];
  if (mapped) return new ApiError(mapped);
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) return new ApiError(STATUS_CODES[status] ?? 'request.invalid');
  return undefined;
}

function answer(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): void {
  const apiError = toApiError(error);
  if (apiError) {
    if (apiError.retryAfter !== undefined) reply.header('retry-after', String(apiError.retryAfter));
    reply.code(apiError.status).send(apiError.toBody());
    return;
  }
  request.log.error({ err: { type: error.name, message: error.message, stack: error.stack } }, 'unexpected error');
  const fallback = new ApiError('server.error');
  reply.code(fallback.status).send(fallback.toBody());
}

/** The socket-level errors Node's HTTP parser raises before there is a request, by the parser's error code. */
const CLIENT_ERROR_CODES: Record<string, ApiError['code']> = {
  HPE_HEADER_OVERFLOW: 'request.headers_too_large',
  ERR_HTTP_REQUEST_TIMEOUT: 'request.timeout',
};

/**
 * Fastify's constructor options for errors raised before routing (bad URL, over-long parameter) and on the socket,
 * before there is a request (headers too large, malformed): the same body, and on the socket the same `headers`.
 */
export function frameworkErrorOptions(headers: Readonly<Record<string, string>>): Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> {
  const headerLines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  const answerClientError = (error: NodeJS.ErrnoException, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const apiError = new ApiError(CLIENT_ERROR_CODES[error.code ?? ''] ?? 'request.invalid');
    const body = JSON.stringify(apiError.toBody());
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${apiError.status} ${http.STATUS_CODES[apiError.status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
          `content-length: ${Buffer.byteLength(body)}\r\n${headerLines}connection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
  // These replies have no route, so the onSend hook that sets the security headers does not run for them.
  const answerFrameworkError = (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    reply.headers(headers);
    answer(error, request, reply);
  };
  return { frameworkErrors: answerFrameworkError, clientErrorHandler: answerClientError };
}

/**
 * Every error becomes `{ error_code, error_message }`; bad input is a 4xx, never a stack trace or a 500. A database
 * out of reach is a 503, and every 429 and 503 says when to come back (`Retry-After`, in seconds).
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(answer);
  app.addHook('onSend', async (_request, reply, payload) => {
    if ((reply.statusCode === 429 || reply.statusCode === 503) && !reply.hasHeader('retry-after')) {
      reply.header('retry-after', String(LIMITS.UNAVAILABLE_RETRY_AFTER));
    }
    return payload;
  });
}
