import { randomBytes } from 'node:crypto';
/**
 * The development flag service, read by the web app's own flag client over real HTTP: the whole path a
 * browser takes (authorization header, items list, one flag), without a service outside this machine.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFlagService } from '../../src/services/feature-flags/flag-service.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

let server: TestApp;
let base: string;

beforeAll(async () => {
  server = await startTestApp({ env: { FLAG_SERVICE_TOKEN: 'flag-client-1' }, flags: { 'test-flag': true } });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}/dev/flag-service`;
});
afterAll(() => server.close());

describe('development flag service', () => {
  it('lists the flags the server enforces, in the environment asked for (development as sit)', async () => {
    const service = createFlagService({ baseUrl: base, project: 'sso', environment: 'development', authorization: 'flag-client-1' });
    await expect(service.list(3000)).resolves.toEqual({
      'company-selection-removal': true,
      'test-flag': true,
      'sms-mfa-disable': false,
      'mfa-disable-skip-registration': false,
    });
    const raw = await fetch(`${base}/flags/sso?env=sit`, { headers: { authorization: 'flag-client-1' } });
    const body = (await raw.json()) as { items: unknown[] };
    expect(body.items).toContainEqual({ key: 'test-flag', environments: { sit: { on: true } } });
  });

  it('answers one flag by key, and 404 for a key it does not know', async () => {
    const service = createFlagService({ baseUrl: base, project: 'sso', environment: 'prod', authorization: 'flag-client-1' });
    await expect(service.one('company-selection-removal', 3000)).resolves.toBe(true);
    await expect(service.one('no-such-flag', 3000)).rejects.toThrow('HTTP 404');
  });

  it('refuses a request without the right authorization header', async () => {
    const service = createFlagService({ baseUrl: base, project: 'sso', environment: 'prod', authorization: 'wrong' });
    await expect(service.list(3000)).rejects.toThrow('HTTP 401');
  });

  it('is not mounted in production', async () => {
    const production = await startTestApp({ env: { NODE_ENV: 'production', MASTER_KEY: randomBytes(32).toString('base64url'), PUBLIC_URL: 'https://sso.example.com', SMTP_URL: 'smtp://127.0.0.1:1', LOG_LEVEL: 'silent', FLAG_SERVICE_TOKEN: 'flag-client-1' } });
    try {
      const response = await production.app.inject({ method: 'GET', url: '/dev/flag-service/flags/sso', headers: { authorization: 'flag-client-1' } });
      expect(response.statusCode).toBe(404);
    } finally {
      await production.close();
    }
  });
});
