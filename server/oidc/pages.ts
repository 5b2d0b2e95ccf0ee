import type { ErrorOut, KoaContextWithOIDC } from 'oidc-provider';
import { PAGE_HEADERS, escapeHtml, htmlPage } from './html-page.ts';

// Served straight from oidc-provider, outside Fastify's onSend hooks, so the page sets its own headers.
function respondHtml(ctx: KoaContextWithOIDC, title: string, body: string): void {
  ctx.set(PAGE_HEADERS);
  ctx.type = 'html';
  ctx.body = htmlPage(title, body);
}

/** oidc-provider's `renderError`: an escaped error page. The provider only calls it when it will not redirect to the client. */
export function renderError(ctx: KoaContextWithOIDC, out: ErrorOut): void {
  const description = out.error_description ? `<p>${escapeHtml(out.error_description)}</p>` : '';
  respondHtml(
    ctx,
    'Error',
    `<h1>Error</h1><p>The sign-in request could not be completed: <code>${escapeHtml(out.error)}</code></p>${description}` +
      '<p><a href="/auth/">Back to sign in</a></p>',
  );
}

/**
 * oidc-provider's `logoutSource`: asks before ending the session (a link alone must not sign anyone out); `form`
 * is the provider's own hidden form (with its CSRF token). "Yes" (logout=yes) ends the single sign-on session for
 * every app signed in with it; the other button signs the requesting app out and keeps the session.
 */
export function logoutSource(ctx: KoaContextWithOIDC, form: string): void {
  const client = ctx.oidc.client?.clientName ?? ctx.oidc.client?.clientId;
  const leaving = client ? `You are signing out of <strong>${escapeHtml(client)}</strong>. ` : '';
  const thisAppOnly = client ? '<button class="secondary" type="submit" form="op.logoutForm">Sign out of this app only</button>' : '';
  respondHtml(
    ctx,
    'Sign out',
    `<h1>Sign out?</h1><p>${leaving}Signing out also ends your single sign-on session in this browser, so every app ` +
      `you signed in to with it asks for your password again.</p>${form}` +
      `<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>${thisAppOnly}`,
  );
}

/** oidc-provider's `postLogoutSuccessSource`: shown when the client gave no post-logout redirect. */
export function postLogoutSuccessSource(ctx: KoaContextWithOIDC): void {
  const client = ctx.oidc.client?.clientName ?? ctx.oidc.client?.clientId;
  const from = client ? ` from ${escapeHtml(client)}` : '';
  respondHtml(ctx, 'Signed out', `<h1>Signed out</h1><p>You have signed out${from}.</p><p><a href="/auth/">Sign in again</a></p>`);
}
