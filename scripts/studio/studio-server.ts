/**
 * Starts the studio: the project's Vite dev server (the web app's own config, so the renderer is the real one) with
 * the studio plugin, listening on 127.0.0.1 only.
 */
import { join } from 'node:path';
import { createServer, type ViteDevServer } from 'vite';
import { rebuildValidators, studioPlugin } from './studio-plugin.ts';
import { STUDIO_PATH } from './studio-routes.ts';
import type { StudioRoots } from './studio-state.ts';

/** A running studio. */
export interface Studio {
  /** The studio page's address. */
  url: string;
  close(): Promise<void>;
}

/** Starts the studio on `port` (0: any free one) over `roots`. */
export async function startStudio(roots: StudioRoots, port: number): Promise<Studio> {
  rebuildValidators(roots);
  const server: ViteDevServer = await createServer({
    configFile: join(roots.projectRoot, 'vite.config.ts'),
    root: roots.projectRoot,
    // Its own cache, so a studio never shares a pre-bundle folder with another checkout's.
    cacheDir: join(roots.projectRoot, 'tmp', 'vite-studio'),
    plugins: [studioPlugin(roots)],
    logLevel: 'warn',
    clearScreen: false,
    optimizeDeps: { entries: ['index.html', 'src/studio/*.html'] },
    server: {
      host: '127.0.0.1',
      port,
      strictPort: port !== 0,
      fs: { allow: [roots.projectRoot, roots.flowsRoot] },
      warmup: { clientFiles: ['./src/studio/studio-main.tsx', './src/studio/frame-main.tsx'] },
    },
  });
  await server.listen();
  const address = server.httpServer?.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  const origin = `http://127.0.0.1:${bound}`;
  // The first state is read before the address is given, so the page opens on it at once.
  await fetch(`${origin}/__studio/state`);
  return { url: `${origin}${STUDIO_PATH}`, close: () => server.close() };
}
