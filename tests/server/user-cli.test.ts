import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runScript, startServerOnFreePort, stopServer } from './support/processes.ts';

const CLI = 'server/cli/sso.ts';
const SLOW = 300_000;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function freshEnv(): Record<string, string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sso-user-cli-'));
  dirs.push(dataDir);
  return { DATA_DIR: dataDir, SEED_DEMO: 'false' };
}

describe("the operator's user commands", () => {
  it('show, disable, enable, unlock, reset-mfa and sessions a user, each in the audit trail', { timeout: SLOW }, async () => {
    const env = freshEnv();
    const sso = (...args: string[]) => runScript(CLI, args, env);
    expect((await sso('user', 'add', '--email', 'kim@example.com', '--password', 'Kim-Passw0rd!', '--first-name', 'Kim')).code).toBe(0);

    const shown = await sso('user', 'show', 'KIM@example.com');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^kim@example.com \(Kim\)  id [0-9a-f-]{36}\n/);
    expect(shown.stdout).toContain('account: enabled; password changed ');
    expect(shown.stdout).toContain('lockout: 0 failed sign-ins\n');
    expect(shown.stdout).toContain('factors: none (the next sign-in sets one up)\n');
    expect(shown.stdout).toContain('companies: none\nsessions (0):\ntrusted devices (0):\nlast events (0, newest first):\n');

    expect((await sso('user', 'disable', 'kim@example.com')).stdout).toBe('kim@example.com disabled; ended 0 session(s); sign-in is refused\n');
    expect((await sso('user', 'show', 'kim@example.com')).stdout).toMatch(/account: DISABLED since \d{4}-\d\d-\d\dT/);
    expect((await sso('user', 'enable', 'kim@example.com')).stdout).toBe('kim@example.com enabled; they can sign in\n');
    expect((await sso('user', 'unlock', 'kim@example.com')).stdout).toBe('kim@example.com unlocked: the next password and codes are checked at once\n');
    expect((await sso('user', 'reset-mfa', 'kim@example.com')).stdout).toBe(
      'kim@example.com: removed no factors, ended 0 session(s), mailed the user; the next sign-in sets up a factor\n',
    );
    expect((await sso('user', 'sessions', 'kim@example.com')).stdout).toBe('kim@example.com has no session\n');
    const unknownSession = await sso('user', 'sessions', 'kim@example.com', '--end', 'no-such-session');
    expect(unknownSession.code).toBe(1);
    expect(unknownSession.stderr).toBe('error: kim@example.com has no session no-such-session (see: npm run sso -- user sessions kim@example.com)\n');

    const audit = await sso('audit', '--user', 'kim@example.com', '--since', '1h');
    expect(audit.code).toBe(0);
    const kinds = audit.stdout.trim().split('\n').map((line) => line.split(/\s+/)[2]);
    expect(kinds).toEqual(['mfa_reset', 'account_unlocked', 'account_enabled', 'account_viewed', 'account_disabled', 'account_viewed']);
    expect(audit.stdout).toContain('kim@example.com mfa_reset {"actor":"operator","removed":[]}');
  });

  it.each([
    [['user', 'show'], 'user show takes exactly one EMAIL'],
    [['user', 'disable', 'nobody@example.com'], 'no user has the email nobody@example.com'],
    [['user', 'sessions', 'a@b.co', '--end', 'x', '--end-all'], 'give --end ID or --end-all, not both'],
    [['audit', '--since', 'yesterday'], '--since "yesterday" is not a duration such as 30m, 24h or 7d'],
    [['audit', '--limit', '0'], '--limit must be a whole number from 1 to 1000'],
  ])('answers %j with one clear line and a non-zero exit', { timeout: SLOW }, async (args, message) => {
    const result = await runScript(CLI, args, freshEnv());
    expect(result.code).not.toBe(0);
    expect(result.stderr.split('\n')[0]).toBe(`error: ${message}`);
  });

  it('goes through the running server’s admin API, audited there too', { timeout: SLOW }, async () => {
    const base = freshEnv();
    const envFor = (port: number) => ({ ...base, PORT: String(port), PUBLIC_URL: `http://localhost:${port}` });
    const server = await startServerOnFreePort(envFor);
    const env = envFor(server.port);
    try {
      expect((await runScript(CLI, ['user', 'add', '--email', 'lee@example.com', '--password', 'Lee-Passw0rd!'], env)).code).toBe(0);
      expect((await runScript(CLI, ['user', 'disable', 'lee@example.com'], env)).stdout).toBe('lee@example.com disabled; ended 0 session(s); sign-in is refused\n');
      const shown = await runScript(CLI, ['user', 'show', 'lee@example.com'], env);
      expect(shown.stdout).toMatch(/account: DISABLED since/);
      expect(shown.stdout).toMatch(/last events \(1, newest first\):\n  \S+  account_disabled \{"actor":"operator"\}\n$/);
      const audit = await runScript(CLI, ['audit', '--since', '10m', '--limit', '1'], env);
      expect(audit.stdout).toMatch(/^\S+  lee@example.com account_viewed \{"actor":"operator"\}\n$/);
    } finally {
      await stopServer(server.child);
    }
  });
});
