/**
 * The studio's own addresses on the Vite dev server: the page (/studio/), a step's frame (/studio/frame), the state
 * (/__studio/state), "Walk this flow" (POST /__studio/walk), "Replay fixtures" (POST /__studio/replay) and the replay
 * reports (/__studio/report/<n>).
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { ViteDevServer } from 'vite';
import type { StudioState } from '../../src/studio/studio-types.ts';
import { readFrameData } from './frame-data.ts';
import { replayFlow, reportFolder } from './replay-flow.ts';
import { readStudioState, type StudioRoots } from './studio-state.ts';
import { walkFlow } from './walk-flow.ts';

/** The studio page's address. */
export const STUDIO_PATH = '/studio/';

const PAGES: Readonly<Record<string, string>> = { '/studio/': 'studio.html', '/studio/frame': 'frame.html' };

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.statusCode = status;
  response.setHeader('content-type', type);
  response.setHeader('cache-control', 'no-store');
  response.end(body);
}

const sendJson = (response: ServerResponse, value: unknown, status = 200) => send(response, status, 'application/json; charset=utf-8', JSON.stringify(value));

/** The example inputs of the step whose route `path` is, from `state`. */
function examplesByRoute(state: StudioState, flow: string): (path: string) => Readonly<Record<string, unknown>> | undefined {
  const steps = state.flows.find((candidate) => candidate.id === flow)?.steps ?? [];
  return (path) => {
    const route = path.replace(/^\/auth\//, '').split('?')[0];
    const step = steps.find((candidate) => candidate.route === route);
    const example = step?.samples.find((sample) => sample.id === 'example');
    return example && Object.keys(example.values).length > 0 ? example.values : undefined;
  };
}

/** The studio's state, read once per change of the flows rather than per request. */
export interface StateCache {
  current(): Promise<StudioState>;
  /** Reads the state again (a file changed); resolves once it is read. */
  refresh(): Promise<StudioState>;
}

/** A cache of the state of `roots`, read at once. */
export function stateCache(roots: StudioRoots): StateCache {
  // A read that fails (a flow file mid-save) is reported when asked for, and never crashes the studio meanwhile.
  const read = () => {
    const reading = readStudioState(roots);
    reading.catch(() => undefined);
    return reading;
  };
  let state = read();
  return {
    current: () => state,
    refresh() {
      state = read();
      return state;
    },
  };
}

/** The request handler for the studio's addresses; anything else goes on to Vite. */
export function studioRoutes(server: ViteDevServer, roots: StudioRoots, cache: StateCache): (request: IncomingMessage, response: ServerResponse, next: () => void) => void {
  const reports = new Map<string, string>();
  let reportDir: string | undefined;
  const handle = async (request: IncomingMessage, response: ServerResponse, next: () => void) => {
    const url = new URL(request.url ?? '/', 'http://studio');
    const page = PAGES[url.pathname === '/studio' ? '/studio/' : url.pathname];
    if (page && request.method === 'GET') {
      const html = readFileSync(join(roots.projectRoot, 'src', 'studio', page), 'utf8');
      send(response, 200, 'text/html; charset=utf-8', await server.transformIndexHtml(url.pathname + url.search, html));
      return;
    }
    if (url.pathname === '/__studio/state' && request.method === 'GET') {
      sendJson(response, await cache.current());
      return;
    }
    if (url.pathname === '/__studio/frame-data' && request.method === 'GET') {
      const data = readFrameData(roots.flowsRoot, url.searchParams.get('step') ?? '', url.searchParams.get('lang') ?? 'en');
      sendJson(response, data ?? { error: 'No flow has this step, or no catalogue this language.' }, data ? 200 : 404);
      return;
    }
    const flow = url.searchParams.get('flow') ?? '';
    if (url.pathname === '/__studio/walk' && request.method === 'POST') {
      const state = await cache.current();
      const known = state.flows.find((candidate) => candidate.id === flow);
      const walk = url.searchParams.get('walk') ?? (known?.walks.includes('happy') ? 'happy' : known?.walks[0]);
      if (!known || !walk || !known.walks.includes(walk)) {
        sendJson(response, { flow, walk: walk ?? '', screens: [], error: `The flow "${flow}" has no walk script to follow (tests/fixtures/walks/${flow}/).` }, 404);
        return;
      }
      sendJson(response, await walkFlow(roots, flow, walk, examplesByRoute(state, flow)));
      return;
    }
    if (url.pathname === '/__studio/replay' && request.method === 'POST') {
      const known = (await cache.current()).flows.find((candidate) => candidate.id === flow);
      if (!known || known.fixtures.length === 0) {
        sendJson(response, { flow, lines: [], error: `The flow "${flow}" has no fixtures (tests/fixtures/flows/${flow}/).` }, 404);
        return;
      }
      reportDir ??= reportFolder();
      const { reportFile, ...replay } = await replayFlow(roots, flow, known.fixtures, reportDir);
      if (reportFile) reports.set(String(reports.size + 1), reportFile);
      sendJson(response, reportFile ? { ...replay, report: `/__studio/report/${reports.size}` } : replay);
      return;
    }
    const report = /^\/__studio\/report\/(\d+)$/.exec(url.pathname)?.[1];
    const file = report && reports.get(report);
    if (file) {
      send(response, 200, 'text/html; charset=utf-8', readFileSync(file, 'utf8'));
      return;
    }
    next();
  };
  return (request, response, next) => {
    handle(request, response, next).catch((error: unknown) => sendJson(response, { error: error instanceof Error ? error.message : String(error) }, 500));
  };
}
