import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { calculatePKCECodeChallenge, randomPKCECodeVerifier } from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPasswordPolicy } from '../../server/auth/password-policy.ts';
import { capturingMailer } from './support/fakes.ts';
import { runScript } from './support/processes.ts';
import { TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const API = '/api/sso/v3';

describe('the server-side password policy', () => {
  const policy = loadPasswordPolicy();

  it('accepts a long passphrase, 64 characters and more, as typed', () => {
    expect(policy(`Aa1!${'long passphrase '.repeat(4)}`.slice(0, 64))).toBeUndefined();
    expect(policy(`Aa1!${'x'.repeat(200)}`)).toBeUndefined();
  });

  it('refuses common and breached passwords whatever their case, though they meet every rule', () => {
    for (const common of ['P@ssw0rd', 'p@SSW0RD', 'Pa$$w0rd', '1qaz@WSX']) {
      expect(policy(common)?.message).toBe('This password is too common and easy to guess. Please choose a different one.');
    }
  });

  it('refuses more than 256 characters rather than cutting them off', () => {
    expect(policy(`Aa1!${'x'.repeat(253)}`)?.message).toBe('at most 256 characters');
  });
});

describe('entering registration', () => {
  let server: TestApp;
  const mail = capturingMailer();
  beforeAll(async () => {
    server = await startTestApp({ mailer: mail.mailer });
  });
  afterAll(async () => {
    await server.close();
  });

  it('sends a client asking for prompt=create to the register screen, inside its sign-in', async () => {
    const browser = new TestBrowser(server.app);
    const verifier = randomPKCECodeVerifier();
    const query = new URLSearchParams({
      client_id: server.publicClient.clientId,
      redirect_uri: server.publicClient.redirectUri,
      state: 'state-1',
      code_challenge: await calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      prompt: 'create',
    });
    const authorize = await browser.request('GET', `${API}/authorize?${query}`);
    const provider = await browser.request('GET', authorize.json<{ redirect_to: string }>().redirect_to);
    const location = new URL(String(provider.headers.location), 'http://localhost:8080');
    expect(location.pathname).toBe('/auth/register');
    expect(location.searchParams.get('interaction')).toBeTruthy();
  });

  it('refuses a common password on the reset step too, before looking at the code', async () => {
    const browser = new TestBrowser(server.app);
    const response = await browser.request('POST', `${API}/password/reset/confirmation`, {
      email: server.user.email,
      code: '123456',
      password: await browser.encrypt('P@ssw0rd'),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error_message).toBe('This password is too common and easy to guess. Please choose a different one.');
  });
});

describe('pre-registering with the admin CLI', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sso-prereg-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('adds a user without a password, and refuses a password with --pre-registered', { timeout: 120_000 }, async () => {
    const env = { DATA_DIR: dataDir, SEED_DEMO: 'false' };
    const added = await runScript('server/cli/sso.ts', ['user', 'add', '--email', 'prepared@example.com', '--pre-registered', '--first-name', 'Mary'], env);
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^user prepared@example.com pre-registered \(id [0-9a-f-]{36}\); they complete registration by registering with this email\n$/);
    const withPassword = await runScript('server/cli/sso.ts', ['user', 'add', '--email', 'other@example.com', '--pre-registered', '--password', 'x'], env);
    expect(withPassword.code).not.toBe(0);
    expect(withPassword.stderr).toContain('--pre-registered takes no --password');
  });
});
