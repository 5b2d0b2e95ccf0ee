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

/**
 * index.html with `html` inside #root, `title` as the document title, and the stylesheet inlined:
 * one request fewer before the first paint. The server allows the inline style by its hash.
 */
export function withScreen(indexHtml: string, html: string, title: string, readAsset: (name: string) => string): string {
  if (!indexHtml.includes(EMPTY_ROOT)) throw new Error('dist/web/index.html has no empty #root to fill');
  const escapedTitle = title.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return indexHtml
    .replace(EMPTY_ROOT, `<div id="root">${html}</div>`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapedTitle}</title>`)
    .replace(STYLESHEET, (_link, name: string) => `<style>${readAsset(name).replace(/<\/style/gi, '<\\/style')}</style>`);
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
    writeFileSync(join(dist, file), withScreen(readFileSync(join(dist, 'index.html'), 'utf8'), screen.html, screen.title, readAsset));
    console.log(`prerender: wrote dist/web/${file} (${screen.path}, ${screen.html.length} characters of markup)`);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

await main();
