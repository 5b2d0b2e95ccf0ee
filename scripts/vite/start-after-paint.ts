/**
 * Has the built pages start the app only after their first paint (src/paint-gate.ts says why). The app's entry
 * script becomes a `<link rel="modulepreload" data-app>`, so it still downloads from the start, and the page's
 * script is the small gate that imports it. The app stays the pages' entry, chunked as before.
 */
import { fileURLToPath } from 'node:url';
import type { Plugin, Rollup } from 'vite';

const GATE = fileURLToPath(new URL('../../src/paint-gate.ts', import.meta.url));

export function startAfterPaint(): Plugin {
  return {
    name: 'start-after-paint',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    buildStart() {
      this.emitFile({ type: 'chunk', id: GATE, name: 'paint-gate' });
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const app = context.chunk;
        const gate = Object.values(context.bundle ?? {}).find((output): output is Rollup.OutputChunk => output.type === 'chunk' && output.facadeModuleId === GATE);
        if (!app || !gate) throw new Error(`start-after-paint: ${context.filename} has no app entry or no gate chunk to start it`);
        const appScript = `<script type="module" crossorigin src="/auth/${app.fileName}"></script>`;
        if (!html.includes(appScript)) throw new Error(`start-after-paint: ${context.filename} does not load its app as ${appScript}`);
        return html.replace(
          appScript,
          `<link rel="modulepreload" crossorigin href="/auth/${app.fileName}" data-app>\n    <script type="module" crossorigin src="/auth/${gate.fileName}"></script>`,
        );
      },
    },
  };
}
