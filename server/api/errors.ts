/**
 * Every error the API answers with: a stable code, an HTTP status and the wording users see.
 * The wire format is always `{ "error_code": "...", "error_message": "..." }`.
 */
export const API_ERRORS = {
  'request.invalid': { status: 400, message: 'The request is not valid.' },
  'request.too_large': { status: 413, message: 'The request is too large.' },
  'request.unsupported_media_type': { status: 415, message: 'Send the request as application/json.' },
  'request.not_found': { status: 404, message: 'There is nothing at this address.' },
  'request.method_not_allowed': { status: 405, message: 'This address does not accept that method.' },
  'auth.init_failed': { status: 400, message: 'Authenticate initiate error, please refresh the browser or try again later' },
  'auth.invalid_credentials': { status: 401, message: 'Incorrect email or password.' },
  'auth.invalid_token': { status: 401, message: 'The access token is missing, invalid or expired.' },
  'transaction.missing': { status: 401, message: 'Your sign-in has expired. Please go back to the app and start again.' },
  'step.out_of_order': { status: 409, message: 'This step is not available at this point of your sign-in. Please start again.' },
  'step.not_available': { status: 404, message: 'This step is not available yet. Please contact support or try again later.' },
  'credentials.unreadable': { status: 400, message: 'Your details could not be read securely. Please refresh the page and try again.' },
  'code.invalid': { status: 400, message: 'That code is wrong or has expired. Check it, or ask for a new one.' },
  'code.too_many_attempts': { status: 429, message: 'Too many wrong codes. Please ask for a new code.' },
  'invitation.expired': { status: 410, message: 'This invitation has expired or has already been used. Ask for a new one.' },
  'company.unknown': { status: 400, message: 'Choose one of the companies in the list.' },
  'code.resend_too_soon': { status: 429, message: 'A new code was sent a moment ago. Please wait before asking for another.' },
  'mfa.method_unavailable': { status: 400, message: 'Choose one of the methods in the list.' },
  'mfa.totp_resting': { status: 429, message: 'Too many wrong codes. Please wait a few minutes, or choose another method.' },
  'phone.invalid': { status: 400, message: 'Enter a mobile number with its country code, such as +44 7700 900123.' },
  'password.reused': { status: 400, message: 'Choose a password different from your current one.' },
  'client.missing': { status: 400, message: 'No client app was named. Please go back to the app and start again.' },
  'client.unknown': { status: 400, message: 'The app that sent you here is not registered.' },
  'client.not_found': { status: 404, message: 'Failed to fetch client information' },
  'client.redirect_uri_mismatch': { status: 400, message: "The return address does not match the app's registration." },
  'client.pkce_required': { status: 400, message: 'This app must use PKCE with the S256 method.' },
  'bot_check.failed': { status: 403, message: 'The security check did not pass. Please try again.' },
  'server.unavailable': { status: 503, message: 'The service is temporarily unavailable. Please try again shortly.' },
  'server.error': { status: 500, message: 'Something went wrong on our side, sorry and please try again' },
} as const satisfies Record<string, { status: number; message: string }>;

/** A stable error code of the API. */
export type ApiErrorCode = keyof typeof API_ERRORS;

/** An error to answer with; `message` overrides the catalogue wording where the step gives a more precise one. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  /** The seconds a client should wait before trying again, sent as `Retry-After` (429 and 503 answers). */
  readonly retryAfter: number | undefined;

  constructor(
    readonly code: ApiErrorCode,
    message?: string,
    options: { retryAfter?: number } = {},
  ) {
    super(message ?? API_ERRORS[code].message);
    this.status = API_ERRORS[code].status;
    this.retryAfter = options.retryAfter;
  }

  /** The JSON body sent to the client. */
  toBody(): { error_code: string; error_message: string } {
    return { error_code: this.code, error_message: this.message };
  }
}
