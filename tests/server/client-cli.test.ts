import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runScript } from './support/processes.ts';

const CLI = 'server/cli/sso.ts';
const SLOW = 180_000;
const JWKS = JSON.stringify({ keys: [{ kty: 'EC', crv: 'P-256', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0', kid: 'k1' }] });

describe('sso client add, update, list and show (27.22, 24.9, 24.11)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sso-client-cli-'));
  const env = { DATA_DIR: dataDir, SEED_DEMO: 'false' };
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('registers a fapi2 private_key_jwt client, lists and shows it, and moves another app to client_secret_jwt', { timeout: SLOW }, async () => {
    const added = await runScript(
      CLI,
      ['client', 'add', '--client-id', 'payments', '--redirect-uri', 'https://pay.example/cb', '--initiate-login-uri', 'https://pay.example/login', '--profile', 'fapi2', '--jwks', JWKS],
      env,
    );
    expect(added.stderr).toBe('');
    expect(added.stdout).toBe('confidential client payments added (private_key_jwt, profile fapi2; no secret: it signs with its own keys)\n');
    expect((await runScript(CLI, ['client', 'add', '--client-id', 'portal', '--redirect-uri', 'https://portal.example/cb'], env)).code).toBe(0);
    const updated = await runScript(CLI, ['client', 'update', 'portal', '--auth-method', 'client_secret_jwt', '--post-logout-redirect-uri', 'https://portal.example/bye'], env);
    expect(updated.stdout).toContain('auth method: client_secret_jwt');
    expect(updated.stdout).toContain('post-logout redirect URIs: https://portal.example/bye');
    const listed = await runScript(CLI, ['client', 'list'], env);
    expect(listed.stdout).toBe(
      'payments\tconfidential\tprivate_key_jwt\tfapi2\thttps://pay.example/cb\thttps://pay.example/login\n' +
        'portal\tconfidential\tclient_secret_jwt\tdefault\thttps://portal.example/cb\t-\n',
    );
    const shown = await runScript(CLI, ['client', 'show', 'payments'], env);
    expect(shown.stdout).toContain('redirect URIs: https://pay.example/cb\n');
    expect(shown.stdout).toContain('initiate-login URI: https://pay.example/login\n');
    expect(shown.stdout).toContain('type: confidential\nauth method: private_key_jwt\nprofile: fapi2\n');
    expect(shown.stdout).toContain('keys: 1 key registered inline\nsigning algorithm: ES256\n');
    const refused = await runScript(CLI, ['client', 'update', 'payments', '--auth-method', 'client_secret_basic'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the fapi2 profile needs --auth-method private_key_jwt');
    const unknown = await runScript(CLI, ['client', 'show', 'nobody'], env);
    expect(unknown.stderr).toBe('error: no client app has the id nobody\n');
  });
});
