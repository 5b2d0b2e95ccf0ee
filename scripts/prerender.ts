/**
 * Prerenders the first screen (npm run build runs this after vite build): renders src/prerender.tsx
 * with Vite's server build, then writes dist/web/<first screen>.html, index.html with the screen's
 * markup inside #root and its title. The server sends that file for the first screen's address
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

/** index.html with `html` inside #root and `title` as the document title. */
export function withScreen(indexHtml: string, html: string, title: string): string {
  if (!indexHtml.includes(EMPTY_ROOT)) throw new Error('dist/web/index.html has no empty #root to fill');
  const escapedTitle = title.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return indexHtml.replace(EMPTY_ROOT, `<div id="root">${html}</div>`).replace(/<title>[^<]*<\/title>/, `<title>${escapedTitle}</title>`);
}

async function main(): Promise<void> {
  // Inside the project, so the server build's imports of react and the rest resolve from node_modules.
  const outDir = join(root, 'dist', 'prerender');
  try {
    await build({ root, logLevel: 'warn', build: { ssr: 'src/prerender.tsx', outDir, emptyOutDir: true, copyPublicDir: false } });
    const entry = (await import(pathToFileURL(join(outDir, 'prerender.js')).href)) as typeof import('../src/prerender.tsx');
    const screen = entry.prerenderFirstScreen();
    const file = prerenderedFileName(screen.path);
    writeFileSync(join(dist, file), withScreen(readFileSync(join(dist, 'index.html'), 'utf8'), screen.html, screen.title));
    console.log(`prerender: wrote dist/web/${file} (${screen.path}, ${screen.html.length} characters of markup)`);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

await main();
