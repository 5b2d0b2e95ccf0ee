/**
 * The error the API answers with. Codes, statuses and parameters are contract/error-codes.ts's; the English wording
 * is the catalogue's (flows/messages/en.json, read once at boot), so API clients read the same words users see.
 * The wire format is `{ "error_code": "...", "error_message": "...", "error_params"?: { ... } }`.
 */
import english from '../flows/messages/en.json' with { type: 'json' };
import { formatMessage } from '../contract/message-format.ts';
import { ERROR_CODES, FIELD_PARAM, REASON_PARAM, errorMessageKey, type ErrorCode, type ProblemDetail } from '../contract/error-codes.ts';

const catalogue: Readonly<Record<string, string>> = english;

/** Each code's English wording; a code without one stops the server at boot rather than answer without words. */
const ENGLISH_MESSAGES = new Map(
  (Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => {
    const message = catalogue[errorMessageKey(code)];
    if (message === undefined) throw new Error(`flows/messages/en.json has no ${errorMessageKey(code)}; run npm run flows:check`);
    return [code, message] as const;
  }),
);


/** A problem worded by the catalogue's `key`: its English words for API clients, the key for the web app. */
export function catalogueProblem(key: string): ProblemDetail {
  return { key, message: catalogue[key] ?? key };
}

/** An error to answer with; `detail` words the problem more precisely than the code's text (a field's rule). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: ErrorCode;
  readonly status: number;
  /** `error_params`: the precise problem's catalogue key, so the web app can word it in the user's language. */
  readonly params: Readonly<Record<string, string>> | undefined;
  /** The seconds a client should wait before trying again, sent as `Retry-After` (429 and 503 answers). */
  readonly retryAfter: number | undefined;

  constructor(code: ErrorCode, detail?: string | ProblemDetail, options: { retryAfter?: number; params?: Readonly<Record<string, string>> } = {}) {
    const precise = typeof detail === 'string' ? { message: detail } : detail;
    super(precise?.message ?? formatMessage(ENGLISH_MESSAGES.get(code) ?? code, options.params ?? {}, 'en'));
    this.code = code;
    this.status = ERROR_CODES[code].status;
    const named: Record<string, string> = { ...options.params };
    if (precise?.key !== undefined) named[REASON_PARAM] = precise.key;
    if (precise?.field !== undefined) named[FIELD_PARAM] = precise.field;
    this.params = Object.keys(named).length > 0 ? named : undefined;
    this.retryAfter = options.retryAfter;
  }

  /** The JSON body sent to the client. */
  toBody(): { error_code: string; error_message: string; error_params?: Readonly<Record<string, string>> } {
    return { error_code: this.code, error_message: this.message, ...(this.params ? { error_params: this.params } : {}) };
  }
}
