/**
 * Every error code the API answers with, its HTTP status and its parameters, defined once for the server, the web
 * app and the checks. The wording lives only in the message catalogues (flows/messages/<language>.json) under
 * `apiError.<code>`: the server sends the English one as `error_message` for API clients, the web app shows the
 * user's language by code. `npm run flows:check` fails when a code has no text in a catalogue, or a text no code.
 * The wire format is `{ "error_code": "...", "error_message": "...", "error_params"?: { ... } }`.
 */

/** What the contract says about one error code. */
export interface ErrorCodeDefinition {
  /** The HTTP status the API answers with. */
  readonly status: number;
  /** The names of `error_params` the code may carry; its catalogue texts may use them as `{name}` placeholders. */
  readonly params?: readonly string[];
  /** Trying the same again may work (a passing fault of the server or the network): the error page offers "Try again". */
  readonly retryable?: boolean;
  /** The sign-in cannot go on from here: the screen that shows it offers "Start again" (src/ui/start-again-link.tsx). */
  readonly restart?: boolean;
}

/**
 * `error_params.reason` of `request.invalid`: the catalogue key of the precise problem (a form field's rule, a
 * password rule), which the web app shows in the user's language instead of the code's general text.
 */
export const REASON_PARAM = 'reason';

/**
 * `error_params.field`: the form field the problem concerns (a password that breaks a rule, a number that is no
 * phone number), so the web app shows the message on that field, marked invalid, and puts the focus there.
 */
export const FIELD_PARAM = 'field';

/** A precise problem behind `request.invalid`: its English wording and, where the catalogue words it, its key. */
export interface ProblemDetail {
  readonly message: string;
  readonly key?: string;
  /** The form field the problem concerns, sent as `error_params.field`. */
  readonly field?: string;
}

/** Every API error code. */
export const ERROR_CODES = {
  'request.invalid': { status: 400, params: [REASON_PARAM, FIELD_PARAM] },
  'request.too_large': { status: 413 },
  'request.unsupported_media_type': { status: 415 },
  'request.not_found': { status: 404 },
  'request.method_not_allowed': { status: 405 },
  'request.uri_too_long': { status: 414 },
  'request.headers_too_large': { status: 431 },
  'request.timeout': { status: 408, retryable: true },
  'auth.init_failed': { status: 400, retryable: true },
  'auth.invalid_credentials': { status: 401 },
  'auth.too_many_attempts': { status: 429, params: ['minutes', 'seconds'] },
  'auth.invalid_token': { status: 401 },
  'transaction.missing': { status: 401, restart: true },
  'step.out_of_order': { status: 409, restart: true },
  'step.not_available': { status: 404 },
  'credentials.unreadable': { status: 400 },
  'code.invalid': { status: 400, params: [REASON_PARAM] },
  'code.too_many_attempts': { status: 429 },
  'invitation.expired': { status: 410 },
  'invitation.used': { status: 410 },
  'company.unknown': { status: 400 },
  'code.resend_too_soon': { status: 429 },
  'code.too_many_requested': { status: 429, params: ['retry_at'] },
  'mfa.method_unavailable': { status: 400 },
  'mfa.totp_resting': { status: 429 },
  'phone.invalid': { status: 400, params: [FIELD_PARAM] },
  'password.reused': { status: 400 },
  'client.missing': { status: 400, restart: true },
  'client.unknown': { status: 400 },
  'client.not_found': { status: 404 },
  'client.redirect_uri_mismatch': { status: 400 },
  'client.pkce_required': { status: 400 },
  'client.open_app_first': { status: 400 },
  'bot_check.failed': { status: 403 },
  'server.unavailable': { status: 503, retryable: true },
  'server.error': { status: 500, retryable: true },
  'account.signed_out': { status: 401 },
  'account.step_up_required': { status: 403 },
  'account.last_factor': { status: 409 },
  'account.factor_not_found': { status: 404 },
  'account.session_not_found': { status: 404 },
  'account.email_taken': { status: 409 },
  'account.email_change_limit': { status: 429 },
  'account.password_wrong': { status: 400 },
  'notice_link.expired': { status: 410 },
  'account.trusted_device_not_found': { status: 404 },
  'account.app_not_found': { status: 404 },
  'passkey.invalid': { status: 400 },
  'passkey.expired': { status: 400 },
  'passkey.already_registered': { status: 409 },
  'passkey.unavailable': { status: 400 },
} as const satisfies Record<string, ErrorCodeDefinition>;

/** A stable error code of the API. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** The prefix of every error text's catalogue key. */
export const ERROR_MESSAGE_PREFIX = 'apiError.';

/** Whether `code` is one of the contract's error codes. */
export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}

/**
 * Whether a failure is worth trying again: one without a code of ours (the network, a part of the page that did not
 * load) or with a code marked `retryable`. An unknown app or a missing page stays the same however often it is tried.
 */
export function isRetryable(code: string | undefined): boolean {
  if (code === undefined) return true;
  const definition: ErrorCodeDefinition | undefined = isErrorCode(code) ? ERROR_CODES[code] : undefined;
  return definition?.retryable === true;
}

/** Whether a failure leaves the sign-in nowhere to go on to, so its screen offers "Start again". */
export function needsRestart(code: string | undefined): boolean {
  const definition: ErrorCodeDefinition | undefined = code !== undefined && isErrorCode(code) ? ERROR_CODES[code] : undefined;
  return definition?.restart === true;
}

/** The catalogue key of a code's text: `apiError.<code>`. */
export function errorMessageKey(code: ErrorCode): string {
  return `${ERROR_MESSAGE_PREFIX}${code}`;
}
