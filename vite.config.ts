/**
 * Builds the web app into dist/web, served under /auth/. The markdown parser rjsf imports for
 * rich descriptions is swapped for a plain-text stand-in, fast-equals (rjsf's deepEquals) for a small structural
 * comparison, and flow files ship without their
 * `description`s, to keep the login bundle small.
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { flowGraphPlugin } from './scripts/vite/flow-graph-plugin.ts';
import { flowIndexPlugin } from './scripts/vite/flow-index-plugin.ts';
import { lazyRjsfFields } from './scripts/vite/lazy-rjsf-fields.ts';
import { startAfterPaint } from './scripts/vite/start-after-paint.ts';

/**
 * Drops what the browser never reads from flows/*.json: the `description`s (they document the data for people),
 * the `$schema` reference, and the steps' `admits` (challenges only the server acts on).
 */
function stripFlowDescriptions(): Plugin {
  return {
    name: 'strip-flow-descriptions',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]flows[\\/][^\\/]+\.json$/.test(id)) return null;
      const flow = JSON.parse(code) as { $schema?: string; description?: string; steps?: Record<string, { description?: string; admits?: unknown }> };
      delete flow.$schema;
      delete flow.description;
      for (const step of Object.values(flow.steps ?? {})) {
        delete step.description;
        delete step.admits;
      }
      return { code: JSON.stringify(flow), map: null };
    },
  };
}

export default defineConfig({
  base: '/auth/',
  plugins: [react(), stripFlowDescriptions(), flowIndexPlugin(), flowGraphPlugin(fileURLToPath(new URL('.', import.meta.url))), lazyRjsfFields(), startAfterPaint()],
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
