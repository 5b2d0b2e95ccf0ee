/**
 * The server over the studio's flows copy, for "Walk this flow" and "Replay fixtures": started as server/main.ts starts
 * a development server (the demo seeded, the admin file written for the CLI), but with the flow graph read from
 * STUDIO_FLOWS_ROOT and the web app built from it (STUDIO_WEB_DIR, web-from-copy.ts), so a walk goes through the flows
 * as they are edited, never the last `npm run build`. Development only, as the studio is.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { flowsHash } from '../../contract/flow-sources.ts';
import { seedDemo } from '../../server/admin/seed.ts';
import { ADMIN_FILE_NAME } from '../../server/cli/admin-file.ts';
import { loadConfig } from '../../server/config.ts';
import { randomToken } from '../../server/crypto/hash.ts';
import { createSecretBox, loadMasterKey } from '../../server/crypto/secret-box.ts';
import { openConfiguredDatabase } from '../../server/runtime.ts';
import { assertWebBuildMatches } from '../../server/web/web-build-flows.ts';
import { studioRefusal } from './studio-guard.ts';

async function start(): Promise<void> {
  const refusal = studioRefusal(process.env);
  const flowsRoot = process.env.STUDIO_FLOWS_ROOT;
  const webDir = process.env.STUDIO_WEB_DIR;
  if (refusal || !flowsRoot || !webDir) throw new Error(refusal ?? 'STUDIO_FLOWS_ROOT and STUDIO_WEB_DIR name the flows copy and the web app built from it');
  const config = loadConfig();
  assertWebBuildMatches(webDir, flowsHash(flowsRoot));
  const masterKey = loadMasterKey(config);
  const { db } = await openConfiguredDatabase(config);
  if (config.seedDemo) await seedDemo({ db, box: createSecretBox(masterKey), config });
  const adminToken = randomToken();
  const { buildApp } = await import('../../server/app.ts');
  const { app } = await buildApp({ config, db, masterKey, adminToken, flowsRoot, webDir });
  const demo = config.seedDemo ? await (await import('../../server/demo/demo-app.ts')).buildDemoApp({ config, db, box: createSecretBox(masterKey) }) : undefined;
  // The walk stops this process with SIGTERM once it is done; nothing of it outlives its DATA_DIR.
  process.on('SIGTERM', () => void Promise.all([app.close(), demo?.close()]).then(() => process.exit(0)));
  await app.listen({ host: config.host, port: config.port });
  if (demo) await demo.listen({ host: config.host, port: config.demo.port });
  mkdirSync(config.dataDir, { recursive: true });
  writeFileSync(join(config.dataDir, ADMIN_FILE_NAME), JSON.stringify({ url: `http://127.0.0.1:${config.port}`, token: adminToken, pid: process.pid }), { mode: 0o600 });
}

start().catch((error: unknown) => {
  process.stderr.write(`copy-server: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
