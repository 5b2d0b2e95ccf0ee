/**
 * Prerenders the first screen (npm run build runs this after vite build): renders src/prerender.tsx
 * with Vite's server build, then writes dist/web/<first screen>.html, index.html with the screen's
 * markup inside #root, its title, the stylesheet inlined and the logo in its box (scripts/prerendered-page.ts). The
 * server sends that file for the first screen's address only (server/web/web-app.ts); every other address gets the
 * empty index.html.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';
import { withScreen } from './prerendered-page.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist', 'web');

/** The prerendered page's file name for a path under the base: "/auth/login" -> "login.html". */
export function prerenderedFileName(path: string): string {
  return `${path.split('/').filter(Boolean).slice(1).join('-') || 'index'}.html`;
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
