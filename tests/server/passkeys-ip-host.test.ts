/**
 * A server whose PUBLIC_URL is an IP address: WebAuthn refuses an IP as the relying party's id, so every passkey
 * ceremony would fail. The server says so at start and offers no passkey anywhere.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import { API, logIn, type StepAnswer } from './support/mfa.ts';
import { openLoginScreen, TestBrowser } from './support/sign-in.ts';
import { startServerOnFreePort, stopServer } from './support/processes.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const IP_URL = 'http://127.0.0.1:8080';

describe('PUBLIC_URL on an IP address', () => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp({ env: { PUBLIC_URL: IP_URL } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('offers no passkey to set up as the second factor, and refuses one asked for', async () => {
    const person = { email: 'ip-host@example.com', password: 'Passkey-Passw0rd!' };
    await addUser({ db: server.db }, person);
    const browser = new TestBrowser(server.app);
    const { answer } = await logIn(browser, { ...server.publicClient, ...person });
    expect(answer.challenge).toBe('MFA_SETUP');
    const kinds = (answer.parameters?.availableChoices as { type: string }[]).map((choice) => choice.type);
    expect(kinds).toContain('totp');
    expect(kinds).not.toContain('passkey');
    const refused = await browser.request('POST', `${API}/auth/2fa/initialization`, { type: 'passkey' });
    expect(refused.json()).toMatchObject({ error_code: 'mfa.method_unavailable' });
  });

  it('tells the login screen there are no passkeys, and refuses a passwordless passkey sign-in in plain words', async () => {
    const browser = new TestBrowser(server.app);
    const { interaction } = await openLoginScreen(browser, server.publicClient);
    const login = (await browser.request('GET', `${API}/authorize?interaction=${interaction}`)).json<StepAnswer>();
    expect(login.challenge).toBe('LOGIN_REQUIRED');
    expect(login.parameters?.passkeys).toBe(false);
    const options = await browser.request('GET', `${API}/auth/passkey/options`);
    expect(options.json()).toMatchObject({ error_code: 'passkey.unavailable', error_message: expect.stringContaining('IP address') });
  });
});

describe('starting with PUBLIC_URL on an IP address', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sso-ip-host-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('warns that passkeys are off and why', { timeout: 120_000 }, async () => {
    const started = await startServerOnFreePort((port) => ({ DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, SEED_DEMO: 'false' }));
    try {
      expect(started.output()).toMatch(/warning: .*passkeys are switched off.*IP address/i);
    } finally {
      await stopServer(started.child);
    }
  });
});
