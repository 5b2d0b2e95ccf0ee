/** Starts the state of a sign-in the demo began again itself, so a browser that drops its cookie is not sent round forever. */
export const RESTART_MARK = 'again.';

/** What the demo's sign-in start takes: its own button's (client, prompt) and third-party-initiated login's (iss, login_hint). */
export interface LoginQuery {
  client?: string;
  invitation?: string;
  prompt?: string;
  iss?: string;
  login_hint?: string;
  /** The demo's own second try after a callback it had not started. */
  again?: string;
}

/** Whether a third-party-initiated login's `iss` names our provider (absent: the demo's own button). */
export function fromOurIssuer(iss: string | undefined, issuer: URL): boolean {
  if (iss === undefined) return true;
  return URL.parse(iss)?.href === issuer.href;
}
