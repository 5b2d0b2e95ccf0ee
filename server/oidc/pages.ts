import type { ErrorOut, KoaContextWithOIDC } from 'oidc-provider';
import { ACCOUNT_PAGE } from '../../contract/product.ts';
import { escapeHtml, pageHeaders } from './html-page.ts';
import { pageContext, productPage, type ProductPageContent } from './product-page.ts';

/** What answering with a page needs of the request's context. */
type PageContext = Pick<KoaContextWithOIDC, 'set' | 'type' | 'body'>;

// Served straight from oidc-provider, outside Fastify's onSend hooks, so the page sets its own headers.
function respondPage(ctx: PageContext, content: ProductPageContent & { language: string; words: Parameters<typeof productPage>[1] }, formTargets: readonly string[] = []): void {
  ctx.set(pageHeaders(formTargets));
  ctx.type = 'html';
  ctx.body = productPage(content.language, content.words, content);
}

/** The app the request came from, by name, if the provider knows it. */
const clientName = (ctx: KoaContextWithOIDC): string | undefined => ctx.oidc?.client?.clientName ?? ctx.oidc?.client?.clientId;

/** The origin of the app's first registered return address: where "Back to the app" may go, and nowhere it chose. */
function appOrigin(ctx: KoaContextWithOIDC): string | undefined {
  const first = ctx.oidc?.client?.redirectUris?.[0];
  const url = first === undefined ? undefined : URL.parse(first);
  return url && (url.protocol === 'https:' || url.protocol === 'http:') ? `${url.origin}/` : undefined;
}

const link = (href: string, text: string, secondary = false) => `<a class="button${secondary ? ' secondary' : ''}" href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;

/**
 * oidc-provider's `renderError`, called only when it will not redirect to the app: the product's page in the person's
 * language, a sentence a person understands and a way on (back to the app, the account page). The error's code and
 * description are developer words: they stay in the provider's log, never on the page.
 */
export function renderError(ctx: KoaContextWithOIDC, _out: ErrorOut): void {
  const page = pageContext(ctx);
  const { words } = page;
  const signOut = ctx.oidc?.route === 'end_session' || ctx.oidc?.route === 'end_session_confirm';
  const prefix = signOut ? 'providerPage.signOutError' : 'providerPage.signInError';
  const name = clientName(ctx);
  const origin = appOrigin(ctx);
  const back = name !== undefined && origin !== undefined ? link(origin, words('providerPage.backToApp', { client: name })) : '';
  respondPage(ctx, {
    ...page,
    title: words('providerPage.signInError.title'),
    headline: words(`${prefix}.headline`),
    body: `<p>${escapeHtml(words(`${prefix}.body`))}</p>`,
    actions: back + link(ACCOUNT_PAGE.path, words('providerPage.accountPage'), back !== ''),
  });
}

/**
 * oidc-provider's `logoutSource`: asks before ending the session (a link alone must not sign anyone out); `form`
 * is the provider's own hidden form (with its CSRF token). "Yes" (logout=yes) ends the single sign-on session for
 * every app signed in with it; another app than the account page may also be signed out alone, keeping the session.
 * On the account page that choice means nothing: it is the session's own page.
 */
export function logoutSource(ctx: KoaContextWithOIDC, form: string): void {
  const page = pageContext(ctx);
  const { words } = page;
  const name = clientName(ctx);
  const accountPage = ctx.oidc?.client?.clientId === ACCOUNT_PAGE.clientId;
  const appOnly = name !== undefined && !accountPage
    ? `<button class="secondary" type="submit" form="op.logoutForm">${escapeHtml(words('providerPage.signOut.appOnly', { client: name }))}</button>`
    : '';
  respondPage(
    ctx,
    {
      ...page,
      title: words('providerPage.signOut.title'),
      headline: words('providerPage.signOut.headline'),
      body: `<p>${escapeHtml(name !== undefined ? words('providerPage.signOut.bodyNamed', { client: name }) : words('providerPage.signOut.body'))}</p>${form}`,
      actions: `<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">${escapeHtml(words('providerPage.signOut.confirm'))}</button>${appOnly}`,
    },
    // The provider checked it against the app's registered addresses; its answer to the form redirects there.
    postLogoutTargets(ctx),
  );
}

/** oidc-provider's `postLogoutSuccessSource`: shown when the app gave no post-logout address. */
export function postLogoutSuccessSource(ctx: KoaContextWithOIDC): void {
  signedOutPage(ctx, clientName(ctx));
}

/** The signed-out page, naming the app the person signed out from when there is one. */
export function signedOutPage(ctx: PageContext & Parameters<typeof pageContext>[0], client: string | undefined): void {
  const page = pageContext(ctx);
  const { words } = page;
  respondPage(ctx, {
    ...page,
    title: words('providerPage.signedOut.title'),
    headline: words('providerPage.signedOut.headline'),
    body: `<p>${escapeHtml(client !== undefined ? words('providerPage.signedOut.bodyNamed', { client }) : words('providerPage.signedOut.body'))}</p>`,
    actions: link(ACCOUNT_PAGE.path, words('providerPage.signedOut.signIn')),
  });
}

/** Where the sign-out confirmation may lead: the client's (already checked) post-logout address, if it gave one. */
export function postLogoutTargets(ctx: Pick<KoaContextWithOIDC, 'oidc'> | { oidc?: undefined }): string[] {
  const target = ctx.oidc?.params?.post_logout_redirect_uri;
  return typeof target === 'string' ? [target] : [];
}
