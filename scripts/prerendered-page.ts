/**
 * The prerendered first screen's page (scripts/prerender.ts writes it): the built index.html with the screen's markup
 * in #root, its title, its stylesheet inlined and the brand logo in its box.
 */
import { inlineLogo } from './inline-logo.ts';

const EMPTY_ROOT = '<div id="root"></div>';
const STYLESHEET = /<link rel="stylesheet"[^>]*href="\/auth\/assets\/([^"]+\.css)"[^>]*>/;
/** The brand logo as the stylesheet and index.html's preload name it (public/logo.svg, which operators replace). */
const LOGO_URL = '/auth/logo.svg';
const LOGO_PRELOAD = /\s*<link rel="preload" href="\/auth\/logo\.svg"[^>]*>/;

/** The logo's box as src/ui/page-layout.tsx renders it, empty: the prerendered page puts the logo's markup in it. */
const EMPTY_LOGO_BOX = /(<span class="brand-logo"[^>]*>)(<\/span>)/;

function withLogo(html: string, logoMarkup: string): string {
  if (!EMPTY_LOGO_BOX.test(html)) throw new Error('the prerendered screen has no empty .brand-logo box to put the logo in');
  return html.replace(EMPTY_LOGO_BOX, (_box, open: string, close: string) => `${open}${logoMarkup}${close}`);
}

/**
 * index.html with `html` inside #root, `title` as the document title, and the stylesheet inlined: no request stands
 * between the document and a first paint that shows the whole screen. The logo (`logoSvg`, public/logo.svg) is put
 * in its box as markup (scripts/inline-logo.ts says why), and the stylesheet then draws no background there; an
 * operator who pointed the stylesheet's --brand-logo at a file of their own keeps it as it is. The server allows the
 * inline style by its hash.
 */
export function withScreen(indexHtml: string, html: string, title: string, readAsset: (name: string) => string, logoSvg?: string): string {
  if (!indexHtml.includes(EMPTY_ROOT)) throw new Error('dist/web/index.html has no empty #root to fill');
  const escapedTitle = title.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const stylesheetName = STYLESHEET.exec(indexHtml)?.[1];
  const css = stylesheetName === undefined ? '' : readAsset(stylesheetName);
  const logoInlined = logoSvg !== undefined && css.includes(`url(${LOGO_URL})`);
  const screen = logoInlined ? withLogo(html, inlineLogo(logoSvg)) : html;
  const pageCss = logoInlined ? css.replaceAll(`url(${LOGO_URL})`, 'none') : css;
  return indexHtml
    .replace(EMPTY_ROOT, () => `<div id="root">${screen}</div>`)
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapedTitle}</title>`)
    .replace(STYLESHEET, () => `<style>${pageCss.replace(/<\/style/gi, '<\\/style')}</style>`)
    .replace(LOGO_PRELOAD, (link) => (logoInlined ? '' : link));
}
