import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { DEMO_USER, seedDemo } from './admin/seed.ts';
import { loadConfig } from './config.ts';
import { ConfigError } from './config-readers.ts';
import { checkNoDemoData } from './production-checks.ts';
import { LIMITS } from './limits.ts';
import { purgeExpired } from './store/cleanup.ts';
import { randomToken } from './crypto/hash.ts';
import { createSecretBox, loadMasterKey } from './crypto/secret-box.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { MigrationsPendingError } from './db/migrate.ts';
import { DatabaseUnavailableError } from './db/unavailable.ts';
import { openConfiguredDatabase } from './runtime.ts';
import { ADMIN_FILE_NAME } from './cli/admin-file.ts';
import { passkeyHostWarning } from './mfa/passkey-host.ts';
import { flowsHash } from '../contract/flow-sources.ts';
import { assertWebBuildMatches, StaleWebBuildError } from './web/web-build-flows.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * Stops taking requests and waits for those in flight, at most `drainMs`; then cuts the connections still open, so a
 * stuck client cannot hold the process past its orchestrator's kill.
 */
async function drain(app: FastifyInstance, drainMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const closed = app.close();
  const overran = await Promise.race([
    closed.then(() => false),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), drainMs);
    }),
  ]);
  clearTimeout(timer);
  if (overran) {
    app.log.warn({ drainMs }, 'requests still in flight after the drain time; closing their connections');
    app.server.closeAllConnections();
    await closed;
  }
}

async function start(): Promise<void> {
  const config = loadConfig();
  // Before the database: a web app built from other flows would call steps the server refuses.
  assertWebBuildMatches(path.join(ROOT, 'dist/web'), flowsHash(ROOT));
  const masterKey = loadMasterKey(config);
  const { db, release } = await openConfiguredDatabase(config);
  if (config.env === 'production') await checkNoDemoData(db, DEMO_USER.email);
  if (config.seedDemo) await seedDemo({ db, box: createSecretBox(masterKey), config });
  const adminToken = randomToken();
  // Imported only now, so a configuration error is reported alone, before the provider library loads.
  const { buildApp } = await import('./app.ts');
  const { app, shutdown, metrics } = await buildApp({ config, db, masterKey, adminToken });
  const demo = config.seedDemo ? await (await import('./demo/demo-app.ts')).buildDemoApp({ config, db, box: createSecretBox(masterKey) }) : undefined;
  const adminFile = path.join(config.dataDir, ADMIN_FILE_NAME);

  const cleanup = setInterval(() => {
    purgeExpired(db, new Date()).catch((error: unknown) => app.log.warn({ err: error }, 'cleanup of expired rows failed'));
  }, LIMITS.CLEANUP_INTERVAL * 1000);
  cleanup.unref();
  shutdown.register('expired-row cleanup', () => clearInterval(cleanup));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`received ${signal}, shutting down`);
    fs.rmSync(adminFile, { force: true });
    await Promise.all([drain(app, LIMITS.SHUTDOWN_DRAIN_MS), demo && drain(demo, LIMITS.SHUTDOWN_DRAIN_MS)]);
    await shutdown.run(LIMITS.SHUTDOWN_HOOK_MS);
    await release();
    app.log.info('shutdown complete');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  fs.mkdirSync(config.dataDir, { recursive: true });
  fs.writeFileSync(adminFile, JSON.stringify({ url: `http://127.0.0.1:${port}`, token: adminToken, pid: process.pid }), { mode: 0o600 });

  const lines = [
    `Single sign-on is running at ${config.publicUrl}/auth/ (listening on ${config.host}:${port})`,
    `  database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`}`,
    `  OpenID Connect discovery: ${config.publicUrl}/.well-known/openid-configuration`,
  ];
  if (config.metrics) {
    const { startMetricsServer } = await import('./observability/metrics-server.ts');
    const metricsServer = await startMetricsServer(metrics, config.metrics);
    shutdown.register('metrics server', () => metricsServer.close());
    lines.push(`  metrics: http://${config.metrics.host}:${metricsServer.port}/metrics`);
  }
  if (demo) {
    // Its own origin, as a real client app has: every sign-in and sign-out it makes crosses origins.
    await demo.listen({ host: config.host, port: config.demo.port });
    lines.push(`  demo client app: ${config.demo.url}/demo/`);
    lines.push(`  demo user: ${DEMO_USER.email} / ${DEMO_USER.password}`);
  }
  // Before the "running" lines, so an operator reading down to them has seen it.
  const passkeyWarning = passkeyHostWarning(config);
  if (passkeyWarning) process.stderr.write(`${passkeyWarning}\n`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

start().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    for (const problem of error.problems) process.stderr.write(`error: ${problem}\n`);
  } else if (error instanceof DataDirLockedError || error instanceof DatabaseUnavailableError || error instanceof MigrationsPendingError || error instanceof StaleWebBuildError) {
    process.stderr.write(`error: ${error.message}\n`);
  } else {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`error: the server could not start: ${message}\n`);
  }
  process.exit(1);
});
