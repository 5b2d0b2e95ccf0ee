/**
 * npm run flows:check [root]: validates every flow in flows/ against the meta-schema and checks
 * every reference, route, challenge, message key and catalogue (the table in flows-check/checks.ts).
 * Prints one line per problem, `file:path — what is wrong — how to fix it`, and exits 1 if any.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadProject } from './flows-check/load-project.ts';
import { checkReport } from './flows-check/run-checks.ts';
import { stepApiRoutes } from '../server/api/step-api.ts';
import { META_SCHEMA_FILE } from './contract/generated-files.ts';
import { committedFlowTypes, flowTypesOf } from './contract/flow-types.ts';

// `npm run flows:check | head` closes the pipe early; that is not a failure of the check.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

const root = resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)));
try {
  const loaded = loadProject(root);
  // The flow file's types are checked where the project keeps them (a copy of flows/ and schemas/ alone has none).
  const flowTypes = existsSync(join(root, 'contract'))
    ? { committed: committedFlowTypes(root), generated: await flowTypesOf(readFileSync(join(root, META_SCHEMA_FILE), 'utf8')) }
    : undefined;
  const report = checkReport({ ...loaded, base: { ...loaded.base, apiRoutes: await stepApiRoutes(), ...(flowTypes ? { flowTypes } : {}) } });
  process.stdout.write(`${report.lines.join('\n')}\n`);
  process.exitCode = report.exitCode;
} catch (error) {
  // A catalogue or schema that is not JSON at all stops the check; say which, in one line.
  console.error(`flows:check: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
