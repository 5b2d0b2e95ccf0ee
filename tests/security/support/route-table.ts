import type { FastifyInstance } from 'fastify';

/** A route Fastify serves: its full path (with `:name` and `*` as registered) and its methods. */
export interface RouteEntry {
  path: string;
  methods: string[];
}

const LINE = /^((?:[│ ] {3})*)[├└]── (.+?)(?: \(([^)]+)\))?$/;

/** Every route in Fastify's route table, read from `printRoutes` (Fastify has no other public listing). */
export function routeTable(app: FastifyInstance): RouteEntry[] {
  const parents: string[] = [];
  const routes: RouteEntry[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = LINE.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    const segment = match[2] ?? '';
    const parent = depth === 0 ? '' : (parents[depth - 1] ?? '');
    const path = depth === 0 ? segment : `${parent.endsWith('/') || segment.startsWith('/') ? parent : `${parent}/`}${segment}`.replace(/\/{2,}/g, '/');
    parents[depth] = path;
    if (match[3]) routes.push({ path, methods: match[3].split(', ') });
  }
  return routes;
}
