import fs from 'node:fs';
import path from 'node:path';
import { DEMO_USER, seedDemo } from './admin/seed.ts';
import { ConfigError, LIMITS, loadConfig } from './config.ts';
import { purgeExpired } from './store/cleanup.ts';
import { randomToken } from './crypto/hash.ts';
import { createSecretBox, loadMasterKey } from './crypto/secret-box.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { DatabaseUnavailableError, openConfiguredDatabase } from './runtime.ts';
import { ADMIN_FILE_NAME } from './cli/admin-file.ts';

async function start(): Promise<void> {
  const config = loadConfig();
  const masterKey = loadMasterKey(config);
  const { db, release } = await openConfiguredDatabase(config);
  if (config.seedDemo) await seedDemo({ db, box: createSecretBox(masterKey), config });
  const adminToken = randomToken();
  // Imported only now, so a configuration error is reported alone, before the provider library loads.
  const { buildApp } = await import('./app.ts');
  const { app } = await buildApp({ config, db, masterKey, adminToken });
  const adminFile = path.join(config.dataDir, ADMIN_FILE_NAME);

  const cleanup = setInterval(() => {
    purgeExpired(db, new Date()).catch((error: unknown) => app.log.warn({ err: error }, 'cleanup of expired rows failed'));
  }, LIMITS.CLEANUP_INTERVAL * 1000);
  cleanup.unref();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`received ${signal}, shutting down`);
    clearInterval(cleanup);
    fs.rmSync(adminFile, { force: true });
    await app.close();
    await release();
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
  if (config.seedDemo) {
    lines.push(`  demo client app: ${config.publicUrl}/demo/`);
    lines.push(`  demo user: ${DEMO_USER.email} / ${DEMO_USER.password}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

start().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof DatabaseUnavailableError) {
    process.stderr.write(`error: ${error.message}\n`);
  } else {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`error: the server could not start: ${message}\n`);
  }
  process.exit(1);
});
