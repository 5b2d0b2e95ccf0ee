import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runScript, startServer, stopServer } from './support/processes.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('migrations as their own step', () => {
  it('refuses to start on an unmigrated database with MIGRATE_ON_START=false, and starts once `npm run migrate` has run', { timeout: 180_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sso-migrate-step-'));
    dirs.push(dataDir);
    const env = { DATA_DIR: dataDir, PORT: '0', SEED_DEMO: 'false', MIGRATE_ON_START: 'false' };

    const refused = await runScript('server/main.ts', [], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: the database lacks \d+ migration\(s\) \(001_initial\.sql, .*\): run `npm run migrate` first, or set MIGRATE_ON_START=true\n$/);

    const migrated = await runScript('server/cli/migrate.ts', [], env);
    expect(migrated.code).toBe(0);
    expect(migrated.stdout).toMatch(/^applied: 001_initial\.sql, /);

    const server = await startServer(env);
    expect(server.output()).toContain('Single sign-on is running');
    await stopServer(server.child);
  });
});
