import type { Middleware } from 'koa';
import { ApiError } from '../errors.ts';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { escapeHtml, htmlPage, pageHeaders } from './html-page.ts';
import { postLogoutTargets } from './pages.ts';

/** Every provider answer that is not one of our pages (JSON, redirects) may load nothing and never be framed. */
const DEFAULT_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** oidc-provider's auto-submit page (its `form_post` helper) submits with an inline script; these find its form. */
const AUTO_SUBMIT_MARK = 'document.forms[0].submit()';
const FORM_ACTION = /<form method="post" action="([^"]*)">/;
const HIDDEN_INPUT = /<input type="hidden" name="([^"]*)" value="([^"]*)"\/>/g;

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const unescapeHtml = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity);

/**
 * The library's auto-submit page as ours: the same form (action and hidden inputs), sent by a button the user
 * presses, so the page runs no script at all and our page policy applies. The provider uses it for sign-out without
 * a session and for `response_mode=form_post`.
 */
function submitPage(libraryPage: string): { action: string; html: string } | undefined {
  const encodedAction = FORM_ACTION.exec(libraryPage)?.[1];
  if (encodedAction === undefined) return undefined;
  const action = unescapeHtml(encodedAction);
  const inputs = [...libraryPage.matchAll(HIDDEN_INPUT)]
    .map(([, name = '', value = '']) => `<input type="hidden" name="${escapeHtml(unescapeHtml(name))}" value="${escapeHtml(unescapeHtml(value))}">`)
    .join('');
  const html = htmlPage(
    'Continue',
    `<h1>Continue</h1><p>Press the button to carry on.</p><form method="post" action="${escapeHtml(action)}">${inputs}` +
      '<button autofocus type="submit">Continue</button></form>',
  );
  return { action, html };
}

/** The error body for a status the provider answered with nothing to say (no route, wrong method): Koa's would be plain text. */
function emptyErrorBody(status: number): ApiError {
  if (status === 404) return new ApiError('request.not_found');
  if (status === 405) return new ApiError('request.method_not_allowed');
  return new ApiError(status >= 500 ? 'server.error' : 'request.invalid');
}

/**
 * oidc-provider middleware: every answer gets the app's `headers` (its answers bypass Fastify's onSend hook), a
 * closed CSP unless it is one of our pages, the library's inline-script page is replaced by ours, and an error
 * with no body (an unknown provider path) gets the app's error body.
 */
export function providerPagePolicy(headers: Readonly<Record<string, string>>): Middleware {
  return async (ctx, next) => {
    ctx.set({ ...headers, 'content-security-policy': DEFAULT_CSP });
    await next();
    if (ctx.body == null && ctx.status >= 400) {
      const error = emptyErrorBody(ctx.status);
      ctx.status = error.status;
      ctx.body = error.toBody();
      return;
    }
    if (typeof ctx.body === 'string' && ctx.body.includes(AUTO_SUBMIT_MARK)) {
      const page = submitPage(ctx.body);
      if (page === undefined) throw new Error('oidc-provider auto-submit page changed shape');
      // The form goes to the client app (form_post: its checked redirect_uri), or to our sign-out confirmation,
      // which redirects to the app's checked post-logout address.
      ctx.set(pageHeaders([page.action, ...postLogoutTargets(ctx as Partial<KoaContextWithOIDC>)]));
      ctx.type = 'html';
      ctx.body = page.html;
    }
  };
}
