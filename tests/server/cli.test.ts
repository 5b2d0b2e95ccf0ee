import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../server/limits.ts';
import { runScript, startServer, startServerOnFreePort, stopServer } from './support/processes.ts';

const CLI = 'server/cli/sso.ts';
const SLOW = 120_000;

function freshDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'sso-cli-'));
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the admin CLI with the embedded database', () => {
  it('opens the database itself when no server runs, and refuses a duplicate with one line', { timeout: SLOW }, async () => {
    const env = { DATA_DIR: freshDataDir(), SEED_DEMO: 'false' };
    dirs.push(env.DATA_DIR);
    const added = await runScript(CLI, ['user', 'add', '--email', 'ops@example.com', '--password', 'Str0ng!pass', '--first-name', 'Op'], env);
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^user ops@example.com added \(id [0-9a-f-]{36}\)\n$/);
    const again = await runScript(CLI, ['user', 'add', '--email', 'OPS@example.com', '--password', 'x'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('error: a user with email OPS@example.com already exists\n');
  });

  it.each([
    [['client', 'add', '--redirect-uri', 'https://app.example/cb'], '--client-id is required'],
    [['user', 'remove', '--email', 'a@b.co'], 'unknown command "user remove"'],
    [['user', 'add', '--email', 'a@b.co', '--password', 'x', '--admin'], "Unknown option '--admin'"],
  ])('answers %j with one clear line and a non-zero exit', { timeout: SLOW }, async (args, message) => {
    const env = { DATA_DIR: freshDataDir(), SEED_DEMO: 'false' };
    dirs.push(env.DATA_DIR);
    const result = await runScript(CLI, args, env);
    expect(result.code).not.toBe(0);
    expect(result.stderr.split('\n')[0]).toContain(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it.each([
    [['user', 'remove', '--email', 'a@b.co']],
    [['company', 'list', 'extra']],
    [['user', 'add', '--email', 'a@b.co', '--password', 'x', '--admin']],
  ])('answers the mistyped %j before creating any database', { timeout: SLOW }, async (args) => {
    const env = { DATA_DIR: freshDataDir(), SEED_DEMO: 'false' };
    dirs.push(env.DATA_DIR);
    const result = await runScript(CLI, args, env);
    expect(result.code).toBe(2);
    expect(fs.readdirSync(env.DATA_DIR)).toEqual([]);
  });

  it.each([
    [['client', 'add', '--client-id', 'app', '--redirect-uri', 'not a url'], '--redirect-uri "not a url" is not an absolute URL'],
    [['client', 'add', '--client-id', 'app', '--redirect-uri', 'http://app.example/cb'], 'must use https'],
    [['client', 'add', '--client-id', 'x', '--redirect-uri', 'https://app.example/cb'], '--client-id must be 2-100'],
    [['client', 'add', '--client-id', 'app', '--redirect-uri', 'https://app.example/cb', '--id-token-alg', 'HS256'], '--id-token-alg must be one of'],
    [['user', 'add', '--email', 'nope', '--password', 'x'], '--email "nope" is not a valid email address'],
    [['user', 'add', '--email', 'a@b.co', '--password', 'x'.repeat(LIMITS.PASSWORD_MAX_LENGTH + 1)], '--password must be at most'],
  ])('refuses the wrong input %j before creating any database', { timeout: SLOW }, async (args, message) => {
    const env = { DATA_DIR: freshDataDir(), SEED_DEMO: 'false' };
    dirs.push(env.DATA_DIR);
    const result = await runScript(CLI, args, env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: [^\n]+\n$/);
    expect(result.stderr.split('\n')[0]).toContain(message);
    expect(fs.readdirSync(env.DATA_DIR)).toEqual([]);
  });

  it('goes through the running server, which keeps its data across a kill -9', { timeout: SLOW }, async () => {
    const dataDir = freshDataDir();
    dirs.push(dataDir);
    const envFor = (port: number) => ({ DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: `http://localhost:${port}`, SEED_DEMO: 'false' });
    let server = await startServerOnFreePort(envFor);
    const { port } = server;
    const env = envFor(port);
    try {
      const confidential = await runScript(CLI, ['client', 'add', '--client-id', 'bank-portal', '--redirect-uri', 'https://bank.example/cb', '--name', 'Bank Portal'], env);
      expect(confidential.code).toBe(0);
      expect(confidential.stdout).toMatch(/^confidential client bank-portal added \(client_secret_basic, profile default\)\nclient secret \(shown once, store it now\): [A-Za-z0-9_-]{43}\n$/);
      const publicClient = await runScript(CLI, ['client', 'add', '--client-id', 'mobile', '--redirect-uri', 'https://m.example/cb', '--public'], env);
      expect(publicClient.stdout).toBe('public client mobile added (PKCE required, no secret)\n');
      expect((await runScript(CLI, ['user', 'add', '--email', 'kept@example.com', '--password', 'Str0ng!pass'], env)).code).toBe(0);

      await stopServer(server.child, 'SIGKILL');
      server = { ...(await startServer(env)), port };
      const info = await fetch(`http://127.0.0.1:${port}/api/sso/v3/clients/bank-portal`);
      expect(await info.json()).toMatchObject({ name: 'Bank Portal' });
      const duplicate = await runScript(CLI, ['user', 'add', '--email', 'kept@example.com', '--password', 'x'], env);
      expect(duplicate.stderr).toBe('error: a user with email kept@example.com already exists\n');
    } finally {
      await stopServer(server.child);
    }
  });
});

describe('password commands of the admin CLI', () => {
  it('adds a user with a temporary password, and forces a reset by email', { timeout: SLOW }, async () => {
    const env = { DATA_DIR: freshDataDir(), SEED_DEMO: 'false' };
    dirs.push(env.DATA_DIR);
    const added = await runScript(CLI, ['user', 'add', '--email', 'temp@example.com', '--password', 'Temp-Passw0rd!', '--temporary'], env);
    expect(added.stdout).toMatch(/^user temp@example.com added \(id [0-9a-f-]{36}\), with a temporary password to replace at first sign-in\n$/);
    const forced = await runScript(CLI, ['user', 'require-reset', 'TEMP@example.com'], env);
    expect(forced.stdout).toBe('user temp@example.com must reset their password at the next sign-in; their sessions were signed out\n');
    const unknown = await runScript(CLI, ['user', 'require-reset', 'nobody@example.com'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('error: no user has the email nobody@example.com\n');
  });
});

describe('starting the server', () => {
  it.each([
    [{ PORT: 'eighty' }, 'error: PORT must be a whole number from 0 to 65535 (got "eighty")'],
    [{ DATABASE_URL: 'mysql://db/sso' }, 'error: DATABASE_URL must start with postgres:// or postgresql:// (got "mysql://db/sso")'],
  ])('stops at once on %o with one line naming the variable', { timeout: SLOW }, async (env, line) => {
    const result = await runScript('server/main.ts', [], { DATA_DIR: freshDataDir(), ...env });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(line);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('the admin CLI with PostgreSQL', () => {
  it('connects directly and registers a client', { timeout: SLOW }, async () => {
    const schema = `cli_${Date.now().toString(36)}`;
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    try {
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.searchParams.set('options', `-c search_path=${schema}`);
      const env = { DATA_DIR: freshDataDir(), DATABASE_URL: url.href };
      dirs.push(env.DATA_DIR);
      const result = await runScript(CLI, ['client', 'add', '--client-id', 'pg-app', '--redirect-uri', 'https://pg.example/cb', '--public'], env);
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe('public client pg-app added (PKCE required, no secret)\n');
      const rows = await admin.query(`select client_id, is_public from ${schema}.clients`);
      expect(rows.rows).toEqual([{ client_id: 'pg-app', is_public: true }]);
    } finally {
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    }
  });
});

describe('npm run migrate', () => {
  it('applies the migrations to a new embedded database once, then finds nothing to do', { timeout: SLOW }, async () => {
    const env = { DATA_DIR: freshDataDir() };
    dirs.push(env.DATA_DIR);
    const migrations = fs.readdirSync('server/db/migrations').filter((name) => name.endsWith('.sql')).sort();
    expect(await runScript('server/cli/migrate.ts', [], env)).toMatchObject({ code: 0, stdout: `applied: ${migrations.join(', ')}\n` });
    expect(await runScript('server/cli/migrate.ts', [], env)).toMatchObject({ code: 0, stdout: 'the database is up to date\n' });
  });

  it('names DATABASE_URL, without its password, when PostgreSQL cannot be reached', { timeout: SLOW }, async () => {
    const result = await runScript('server/cli/migrate.ts', [], { DATA_DIR: freshDataDir(), DATABASE_URL: 'postgres://sso:hunter2@127.0.0.1:1/sso' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: DATABASE_URL postgres:\/\/sso:\*\*\*@127\.0\.0\.1:1\/sso cannot be used: .+\n$/);
    expect(result.stderr).not.toContain('hunter2');
  });
});
