/**
 * Builds the web app into dist/web, served under /auth/. The markdown parser rjsf imports for
 * rich descriptions is swapped for a plain-text stand-in to keep the login bundle small.
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/auth/',
  plugins: [react()],
  resolve: {
    alias: [
      { find: /^markdown-to-jsx\/react$/, replacement: fileURLToPath(new URL('./src/ui/plain-markdown.tsx', import.meta.url)) },
      { find: /^fast-uri$/, replacement: fileURLToPath(new URL('./src/ui/uri-resolver.ts', import.meta.url)) },
    ],
  },
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    // The page is served with CSP script-src 'self': no inline module-preload polyfill.
    modulePreload: { polyfill: false },
  },
});
