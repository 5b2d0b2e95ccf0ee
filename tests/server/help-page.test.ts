import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { ConfigError } from '../../server/config-readers.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const BUILT = path.resolve('dist/web/index.html');
const GUIDE = 'https://guide.example.org/sso/help';

describe('the help link target, HELP_URL', () => {
  it('accepts an absolute https address, and leaves it unset for the built-in page', () => {
    expect(loadConfig({ NODE_ENV: 'test', HELP_URL: GUIDE }).helpUrl).toBe(GUIDE);
    expect(loadConfig({ NODE_ENV: 'test' }).helpUrl).toBeUndefined();
  });

  it('refuses a value that is not an absolute web address, and plain http in production, naming HELP_URL', () => {
    for (const env of [{ NODE_ENV: 'test', HELP_URL: 'support page' }, { NODE_ENV: 'test', HELP_URL: 'ftp://guide.example.org/' }]) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(/^HELP_URL /);
    }
    expect(() => loadConfig({ NODE_ENV: 'production', MASTER_KEY: 'a'.repeat(43), SMTP_URL: 'smtp://mail.example.org', HELP_URL: 'http://guide.example.org/' })).toThrow(/HELP_URL must start with https:/);
  });
});

describe('/auth/help', () => {
  let builtIn: TestApp;
  let operators: TestApp;
  beforeAll(async () => {
    if (!fs.existsSync(BUILT)) throw new Error('dist/web is missing: run `npm run build` first (npm test does)');
    builtIn = await startTestApp();
    operators = await startTestApp({ env: { HELP_URL: GUIDE } });
  });
  afterAll(async () => {
    await builtIn?.close();
    await operators?.close();
  });

  it('is the built-in help page of the web app when no HELP_URL is set', async () => {
    const response = await builtIn.app.inject({ method: 'GET', url: '/auth/help', headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<div id="root">');
  });

  it("sends users to the operator's own guide when HELP_URL names one", async () => {
    const response = await operators.app.inject({ method: 'GET', url: '/auth/help' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(GUIDE);
  });
});
