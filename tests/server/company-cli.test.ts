import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runScript, startServerOnFreePort, stopServer } from './support/processes.ts';

const CLI = 'server/cli/sso.ts';
const SLOW = 180_000;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function freshDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sso-company-cli-'));
  dirs.push(dir);
  return dir;
}

describe('company and invitation commands of the admin CLI', () => {
  it('adds companies and members, lists them, and refuses unknown names and duplicates with one line', { timeout: SLOW }, async () => {
    const env = { DATA_DIR: freshDataDir(), SEED_DEMO: 'false' };
    expect((await runScript(CLI, ['user', 'add', '--email', 'ann@example.com', '--password', 'Str0ng!pass'], env)).code).toBe(0);
    const added = await runScript(CLI, ['company', 'add', 'Acme  Payments'], env);
    expect(added.stdout).toMatch(/^company Acme Payments added \(id [0-9a-f-]{36}\)\n$/);
    const duplicate = await runScript(CLI, ['company', 'add', 'acme payments'], env);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toBe('error: a company named "acme payments" already exists\n');

    expect((await runScript(CLI, ['company', 'add-user', 'ACME PAYMENTS', 'Ann@example.com'], env)).stdout).toBe('ann@example.com now belongs to Acme Payments\n');
    const again = await runScript(CLI, ['company', 'add-user', 'Acme Payments', 'ann@example.com'], env);
    expect(again.stderr).toBe('error: ann@example.com already belongs to Acme Payments\n');
    const unknownCompany = await runScript(CLI, ['company', 'add-user', 'Globex', 'ann@example.com'], env);
    expect(unknownCompany.stderr).toBe('error: no company is named "Globex" (see: npm run sso -- company list)\n');
    const unknownUser = await runScript(CLI, ['company', 'add-user', 'Acme Payments', 'bob@example.com'], env);
    expect(unknownUser.stderr.split('\n')[0]).toBe('error: no user has the email bob@example.com (invite them instead: npm run sso -- invite --email ... --company ...)');

    expect((await runScript(CLI, ['company', 'list'], env)).stdout).toMatch(/^Acme Payments\t1 member\t[0-9a-f-]{36}\n$/);
    expect((await runScript(CLI, ['company', 'members', 'Acme Payments'], env)).stdout).toBe('ann@example.com\n');
    const missing = await runScript(CLI, ['company', 'add-user', 'Acme Payments'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr.split('\n')[0]).toBe('error: company add-user takes NAME EMAIL');
  });

  it('invites through the running server, which emails a link built from PUBLIC_URL', { timeout: SLOW }, async () => {
    const dataDir = freshDataDir();
    const envFor = (port: number) => ({ DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: 'https://sso.example.test', SEED_DEMO: 'true' });
    const server = await startServerOnFreePort(envFor);
    const { port } = server;
    const env = envFor(port);
    try {
      expect((await runScript(CLI, ['company', 'add', 'Acme'], env)).code).toBe(0);
      const invited = await runScript(CLI, ['invite', '--email', 'new@example.com', '--company', 'Acme'], env);
      expect(invited.stderr).toBe('');
      expect(invited.stdout).toMatch(/^invitation sent to new@example.com for Acme \(valid until \d{4}-\d\d-\d\dT[\d:.]+Z\)\n$/);
      const outbox = await fetch(`http://127.0.0.1:${port}/dev/outbox?to=new@example.com`, { headers: { accept: 'application/json' } });
      expect(JSON.stringify(await outbox.json())).toMatch(/https:\/\/sso\.example\.test\/auth\/login\?invitation=[A-Za-z0-9_-]{43}/);

      const unknownClient = await runScript(CLI, ['invite', '--email', 'x@example.com', '--company', 'Acme', '--client-id', 'nope'], env);
      expect(unknownClient.stderr).toBe('error: client nope is unknown or has no sign-in start address (client add --initiate-login-uri URI)\n');
      const unknownCompany = await runScript(CLI, ['invite', '--email', 'x@example.com', '--company', 'Globex'], env);
      expect(unknownCompany.stderr).toBe('error: no company is named "Globex" (see: npm run sso -- company list)\n');
      const badEmail = await runScript(CLI, ['invite', '--email', 'not-an-email', '--company', 'Acme'], env);
      expect(badEmail.stderr).toBe('error: "not-an-email" is not a valid email address\n');
      const existing = await runScript(CLI, ['invite', '--email', 'demo@example.com', '--company', 'Acme'], env);
      expect(existing.stdout).toBe('demo@example.com already has an account: added to Acme and told by email (no invitation needed)\n');
    } finally {
      await stopServer(server.child);
    }
  });
});
