import querystring from 'node:querystring';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';

/** A UTF-16 surrogate without its partner: JSON can carry one, but no UTF-8 text (nor PostgreSQL) can hold it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when `text` can be stored as PostgreSQL text: no NUL byte and no lone surrogate. */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}

/** True when every string in `value` (object keys included, at any depth) is storable; walked without recursion, so depth costs no stack. */
export function isStorableValue(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (!isStorableText(next)) return false;
    } else if (Array.isArray(next)) {
      pending.push(...next);
    } else if (typeof next === 'object' && next !== null) {
      for (const [key, item] of Object.entries(next)) {
        if (!isStorableText(key)) return false;
        pending.push(item);
      }
    }
  }
  return true;
}

/** Percent-decodes as a form or cookie parser would, keeping what does not decode. */
function percentDecoded(text: string): string {
  return querystring.unescape(text);
}

/** Basic credentials (client_secret_basic) decoded the way oidc-provider reads them: base64, then form-decoding. */
function basicCredentials(authorization: string): string {
  const match = /^basic\s+(\S+)/i.exec(authorization);
  return match ? percentDecoded(Buffer.from(match[1]!, 'base64').toString('utf8')) : '';
}

/** A raw body (the provider's routes keep theirs unparsed) read as its content type says. */
function decodedBody(body: Buffer, contentType: string | undefined): unknown {
  const text = body.toString('utf8');
  if (contentType?.includes('application/x-www-form-urlencoded')) return querystring.parse(text);
  if (contentType?.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** True when some part of the request that a handler could store holds an unstorable string. */
function holdsUnstorableInput(request: FastifyRequest): boolean {
  const headers = Object.values(request.headers).flat().filter((value): value is string => typeof value === 'string');
  const cookieHeader = request.headers.cookie ?? '';
  const body = Buffer.isBuffer(request.body) ? decodedBody(request.body, request.headers['content-type']) : request.body;
  return !isStorableValue([
    percentDecoded(request.raw.url ?? ''),
    request.params,
    request.query,
    body,
    headers,
    percentDecoded(cookieHeader),
    basicCredentials(request.headers.authorization ?? ''),
  ]);
}

/**
 * One guard for every route, the provider's included: a request holding a NUL byte or a lone surrogate (in its URL,
 * query, parameters, body, cookies or headers) is answered 400 before any handler could try to store it.
 */
export function installUnstorableInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (holdsUnstorableInput(request)) throw new ApiError('request.invalid', UNSTORABLE_INPUT_MESSAGE);
  });
}

/** What the answer says; the same wording whether the guard or the database caught the value. */
export const UNSTORABLE_INPUT_MESSAGE = 'The request is not valid: it holds a character that cannot be stored (a NUL byte or a lone surrogate).';
