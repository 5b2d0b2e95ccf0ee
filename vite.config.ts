/**
 * Builds the web app into dist/web, served under /auth/. The markdown parser rjsf imports for
 * rich descriptions is swapped for a plain-text stand-in, fast-equals (rjsf's deepEquals) for a small structural
 * comparison, and the data files ship without their documentation (scripts/vite/strip-documentation.ts), to keep
 * the login bundle small.
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { flowGraphPlugin } from './scripts/vite/flow-graph-plugin.ts';
import { flowIndexPlugin } from './scripts/vite/flow-index-plugin.ts';
import { lazyRjsfFields } from './scripts/vite/lazy-rjsf-fields.ts';
import { startAfterPaint } from './scripts/vite/start-after-paint.ts';
import { stripDocumentation } from './scripts/vite/strip-documentation.ts';

export default defineConfig({
  base: '/auth/',
  plugins: [react(), stripDocumentation(), flowIndexPlugin(), flowGraphPlugin(fileURLToPath(new URL('.', import.meta.url))), lazyRjsfFields(), startAfterPaint()],
  resolve: {
    alias: [
      { find: /^markdown-to-jsx\/react$/, replacement: fileURLToPath(new URL('./src/ui/plain-markdown.tsx', import.meta.url)) },
      { find: /^fast-uri$/, replacement: fileURLToPath(new URL('./src/ui/uri-resolver.ts', import.meta.url)) },
      { find: /^fast-equals$/, replacement: fileURLToPath(new URL('./src/ui/deep-equal.ts', import.meta.url)) },
    ],
  },
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    // The page is served with CSP script-src 'self': no inline module-preload polyfill.
    modulePreload: { polyfill: false },
  },
});
