import type { KoaContextWithOIDC } from 'oidc-provider';
import { escapeHtml, PRODUCT_STYLE } from './html-page.ts';
import { acceptedLanguages, LANGUAGE_COOKIE, pickPageLanguage, wordsFor, type Words } from './page-words.ts';

/** The language a provider page speaks: the person's choice in the web app, the app's ui_locales, the browser's languages. */
export function pageLanguage(ctx: Pick<KoaContextWithOIDC, 'cookies' | 'get'> & { oidc?: { params?: Record<string, unknown> } }): string {
  const uiLocales = ctx.oidc?.params?.ui_locales;
  return pickPageLanguage([
    ctx.cookies.get(LANGUAGE_COOKIE, { signed: false }),
    ...(typeof uiLocales === 'string' ? uiLocales.split(' ') : []),
    ...acceptedLanguages(ctx.get('accept-language')),
  ]);
}

/** What one page shows; `body` and `actions` are HTML the caller has escaped. */
export interface ProductPageContent {
  title: string;
  headline: string;
  body: string;
  actions: string;
}

/** A page of the product in `language`: logo, card, the help link and copyright, as the web app's frame has them. */
export function productPage(language: string, words: Words, content: ProductPageContent): string {
  return (
    `<!doctype html><html lang="${escapeHtml(language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escapeHtml(content.title)}</title><style>${PRODUCT_STYLE}</style></head><body><div class="page"><main>` +
    `<img class="logo" src="/auth/logo.svg" alt="${escapeHtml(words('app.name'))}">` +
    `<h1>${escapeHtml(content.headline)}</h1>${content.body}<div class="actions">${content.actions}</div></main>` +
    `<footer><p><a href="/auth/help">${escapeHtml(words('app.help'))}</a></p><p>${escapeHtml(words('app.copyright', { year: new Date().getFullYear() }))}</p></footer>` +
    '</div></body></html>'
  );
}

/** The words and language of a page answering `ctx`. */
export function pageContext(ctx: Parameters<typeof pageLanguage>[0]): { language: string; words: Words } {
  const language = pageLanguage(ctx);
  return { language, words: wordsFor(language) };
}
