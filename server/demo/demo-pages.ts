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
}

function claimValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
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
      `<h2>ID token claims</h2><table><tbody>${rows}</tbody></table>` +
      `<p><a class="button secondary" href="/demo/logout">Sign out</a></p><p>${signIn}</p>`,
  );
}

/** The page shown when a sign-in fails; `error` is the OAuth error code. */
export function demoErrorPage(error: string, description: string | undefined): string {
  const detail = description ? `<p>${escapeHtml(description)}</p>` : '';
  return htmlPage(
    'Sign-in failed',
    `<h1>Sign-in failed</h1><p>The sign-in did not complete: <code>${escapeHtml(error)}</code></p>${detail}<p><a href="/demo/">Back to the demo</a></p>`,
  );
}
