import { escapeHtml, htmlPage } from '../oidc/html-page.ts';

/** A sign-in button on the demo's home page. */
export interface DemoButton {
  clientId: string;
  label: string;
}

/** Who is signed in to the demo, as its sealed session cookie records it. */
export interface DemoSession {
  clientId: string;
  email: string;
  /** The verified ID token's claims. */
  claims: Record<string, unknown>;
  /** The ID token itself, sent back as id_token_hint when signing out at the provider. */
  idToken?: string;
  /** The current refresh token, when the provider issued one; replaced on every refresh. */
  refreshToken?: string;
  /** The start of the current access token, so a refresh visibly yields a new one. */
  accessTokenPreview?: string;
  /** How many times the session was refreshed, and when last (ISO time). */
  refreshes?: number;
  refreshedAt?: string;
  /** `bearer`, or `dpop` for a token bound to the app's key (the fapi2 client). */
  tokenType?: string;
  /** What the userinfo endpoint answered (the fapi2 client shows it, read with a DPoP proof). */
  userinfo?: Record<string, unknown>;
}

/** Enough of a token to tell two apart, never the whole of it. */
export function tokenPreview(token: string): string {
  return `${token.slice(0, 10)}…`;
}

function refreshPanel(session: DemoSession): string {
  if (!session.refreshToken) return '';
  const refreshed = session.refreshes ? ` (refreshed ${session.refreshes} time${session.refreshes === 1 ? '' : 's'}, last at ${escapeHtml(session.refreshedAt ?? '')})` : '';
  return (
    `<h2>Session</h2><p>Access token: <code data-testid="access-token">${escapeHtml(session.accessTokenPreview ?? '')}</code>${refreshed}</p>` +
    `<p>Token type: <code data-testid="token-type">${escapeHtml(session.tokenType ?? 'bearer')}</code>${session.tokenType?.toLowerCase() === 'dpop' ? ' (bound to this app\'s key: useless to anyone who steals it)' : ''}</p>` +
    `<form method="post" action="/demo/refresh"><button type="submit">Refresh my session</button></form>`
  );
}

function claimValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The userinfo answer, for the client that reads it with a DPoP proof. */
function userinfoTable(session: DemoSession): string {
  if (!session.userinfo) return '';
  const rows = Object.entries(session.userinfo)
    .map(([name, value]) => `<tr><th>${escapeHtml(name)}</th><td>${escapeHtml(claimValue(value))}</td></tr>`)
    .join('');
  return `<h2>Userinfo (read with a DPoP proof)</h2><table data-testid="userinfo"><tbody>${rows}</tbody></table>`;
}

/** The demo's home page: sign-in buttons, and who is signed in with their ID token claims. */
export function demoHomePage(buttons: readonly DemoButton[], session: DemoSession | undefined): string {
  const signIn = buttons
    .map((button) => `<a class="button" href="/demo/login?client=${encodeURIComponent(button.clientId)}">Sign in to ${escapeHtml(button.label)}</a>`)
    .join('');
  // OIDC's prompt=create: the first client's sign-in, starting on the register screen.
  const first = buttons[0];
  const register = first ? `<a class="button secondary" href="/demo/login?client=${encodeURIComponent(first.clientId)}&amp;prompt=create">Create an account</a>` : '';
  if (!session) return htmlPage('Demo client app', `<h1>Demo client app</h1><p>You are not signed in.</p><p>${signIn}</p><p>${register}</p>`);
  const rows = Object.entries(session.claims)
    .map(([name, value]) => `<tr><th>${escapeHtml(name)}</th><td>${escapeHtml(claimValue(value))}</td></tr>`)
    .join('');
  return htmlPage(
    'Demo client app',
    `<h1>Demo client app</h1><p>Signed in as <strong>${escapeHtml(session.email)}</strong> through <code>${escapeHtml(session.clientId)}</code>.</p>` +
      refreshPanel(session) +
      `<h2>ID token claims</h2><table><tbody>${rows}</tbody></table>` +
      userinfoTable(session) +
      `<p><a class="button secondary" href="/demo/logout">Sign out</a></p><p>${signIn}</p>`,
  );
}

/**
 * The page shown when a sign-in fails: what happened in plain words and the ways on, signing in again to the same app
 * (`clientId`, when known) and the demo's home. The OAuth error code stays in the log.
 */
export function demoErrorPage(clientId: string | undefined, description: string): string {
  const again = clientId ? `<a class="button" href="/demo/login?client=${encodeURIComponent(clientId)}">Sign in again</a>` : '';
  return htmlPage(
    'Sign-in failed',
    `<h1>We could not sign you in</h1><p>${escapeHtml(description)}</p><p>${again}<a class="button secondary" href="/demo/">Back to the demo</a></p>`,
  );
}
