import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.ts';

describe('an invitation link at the login address', () => {
  let server: TestApp;
  beforeAll(async () => {
    if (!fs.existsSync(path.resolve('dist/web/assets'))) throw new Error('dist/web is missing: run `npm run build` first (npm test does)');
    server = await startTestApp();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('opens the login step with the invitation, not the account page, though it names no client', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/auth/login?invitation=abcDEF123_-' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('<div id="root">');
  });

  it('still sends a login no client app asked for to the account page', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/auth/login?username=a%40example.com' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/auth/account');
  });
});
