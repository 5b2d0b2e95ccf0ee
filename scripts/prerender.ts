/**
 * Prerenders the first screen (npm run build runs this after vite build): renders src/prerender.tsx
 * with Vite's server build, then writes dist/web/<first screen>.html, index.html with the screen's
 * markup inside #root, its title, and the stylesheet inlined. The server sends that file for the first screen's address
 * only (server/web/web-app.ts); every other address gets the empty index.html.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist', 'web');
const EMPTY_ROOT = '<div id="root"></div>';

/** The prerendered page's file name for a path under the base: "/auth/login" -> "login.html". */
export function prerenderedFileName(path: string): string {
  return `${path.split('/').filter(Boolean).slice(1).join('-') || 'index'}.html`;
}

const STYLESHEET = /<link rel="stylesheet"[^>]*href="\/auth\/assets\/([^"]+\.css)"[^>]*>/;
/** The brand logo as the stylesheet and index.html's preload name it (public/logo.svg, which operators replace). */
const LOGO_URL = '/auth/logo.svg';
const LOGO_PRELOAD = /\s*<link rel="preload" href="\/auth\/logo\.svg"[^>]*>/;

/** `svg` as a quoted data: URL for CSS (percent-encoded, which stays smaller than base64 for SVG markup). */
export function svgDataUrl(svg: string): string {
  const compact = svg.replace(/\s+/g, ' ').trim();
  return `"data:image/svg+xml,${compact.replace(/[^ !$&-;=?-[\]_a-z~]/gi, (char) => encodeURIComponent(char))}"`;
}

/**
 * index.html with `html` inside #root, `title` as the document title, and the stylesheet inlined with the logo in it:
 * no request stands between the document and a first paint that shows the whole screen, logo included (the logo
 * is the screen's largest image). The server allows the inline style by its hash.
 */
export function withScreen(indexHtml: string, html: string, title: string, readAsset: (name: string) => string, logoSvg?: string): string {
  if (!indexHtml.includes(EMPTY_ROOT)) throw new Error('dist/web/index.html has no empty #root to fill');
  const escapedTitle = title.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return indexHtml
    .replace(EMPTY_ROOT, `<div id="root">${html}</div>`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapedTitle}</title>`)
    .replace(STYLESHEET, (_link, name: string) => `<style>${inlineLogo(readAsset(name), logoSvg).replace(/<\/style/gi, '<\\/style')}</style>`)
    .replace(LOGO_PRELOAD, (link) => (logoSvg === undefined ? link : ''));
}

function inlineLogo(css: string, logoSvg: string | undefined): string {
  return logoSvg === undefined ? css : css.replaceAll(`url(${LOGO_URL})`, `url(${svgDataUrl(logoSvg)})`);
}

async function main(): Promise<void> {
  // Inside the project, so the server build's imports of react and the rest resolve from node_modules.
  const outDir = join(root, 'dist', 'prerender');
  try {
    await build({ root, logLevel: 'warn', build: { ssr: 'src/prerender.tsx', outDir, emptyOutDir: true, copyPublicDir: false } });
    const entry = (await import(pathToFileURL(join(outDir, 'prerender.js')).href)) as typeof import('../src/prerender.tsx');
    const screen = entry.prerenderFirstScreen();
    const file = prerenderedFileName(screen.path);
    const readAsset = (name: string) => readFileSync(join(dist, 'assets', name), 'utf8');
    const logo = readFileSync(join(dist, 'logo.svg'), 'utf8');
    writeFileSync(join(dist, file), withScreen(readFileSync(join(dist, 'index.html'), 'utf8'), screen.html, screen.title, readAsset, logo));
    console.log(`prerender: wrote dist/web/${file} (${screen.path}, ${screen.html.length} characters of markup)`);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

await main();
