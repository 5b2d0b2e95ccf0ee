/**
 * npm run studio [-- --port 5180] [--flows <folder>]: the flow studio for product staff, at http://127.0.0.1:5180/studio/.
 * Every flow and step, each step rendered by the web app's own renderer in every language at desktop and phone width,
 * with its example inputs and validation messages, and the flows:check problems beside the step they concern. It
 * follows saved edits at once. `--flows` (or STUDIO_FLOWS) shows a folder holding a copy of flows/ and schemas/
 * instead of the project's. Development only: it refuses to start with NODE_ENV=production.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { studioRefusal } from './studio/studio-guard.ts';

/** The port the studio listens on unless told otherwise. */
const DEFAULT_PORT = 5180;

const refusal = studioRefusal(process.env);
if (refusal) {
  process.stderr.write(`studio: ${refusal}\n`);
  process.exit(1);
}
const { values } = parseArgs({ args: process.argv.slice(2), options: { port: { type: 'string' }, flows: { type: 'string' } } });
const projectRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));
const flows = values.flows ?? process.env.STUDIO_FLOWS;
const port = Number(values.port ?? process.env.STUDIO_PORT ?? DEFAULT_PORT);
const { startStudio } = await import('./studio/studio-server.ts');
const studio = await startStudio({ projectRoot, flowsRoot: flows ? resolve(flows) : projectRoot }, port);
process.stdout.write(`Flow studio: ${studio.url}\n`);
const stop = () => void studio.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
