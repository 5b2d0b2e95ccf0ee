import * as oidc from 'openid-client';

/** What the demo's error page says for the OAuth error codes a person may meet; the code itself goes to the log only. */
const PLAIN_WORDS: Readonly<Record<string, string>> = {
  access_denied: 'The sign-in was cancelled or refused. Please sign in again.',
  login_required: 'You need to sign in again.',
  interaction_required: 'The sign-in needs you to confirm something. Please sign in again.',
  invalid_grant: 'This sign-in was already used or took too long. Please sign in again.',
  invalid_response: "The sign-in service's answer could not be checked. Please sign in again.",
  server_error: 'The sign-in service could not be reached. Please try again.',
};

const FALLBACK = 'The sign-in did not complete. Please sign in again.';

/**
 * Turns whatever failed into an OAuth-style code (for the log) and a sentence a person understands (for the page): a
 * failure of the demo's own (no sign-in started here) keeps its own sentence; the provider's descriptions are
 * developer words and never shown.
 */
export function describeFailure(error: unknown): { code: string; description: string } {
  if (error instanceof oidc.AuthorizationResponseError || error instanceof oidc.ResponseBodyError) {
    return { code: error.error, description: PLAIN_WORDS[error.error] ?? FALLBACK };
  }
  if (error instanceof oidc.ClientError) return { code: 'invalid_response', description: PLAIN_WORDS.invalid_response ?? FALLBACK };
  if (error instanceof Error && 'error' in error && typeof error.error === 'string') return { code: error.error, description: error.message };
  return { code: 'server_error', description: PLAIN_WORDS.server_error ?? FALLBACK };
}
