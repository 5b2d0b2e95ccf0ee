import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/support/test-app.ts';

describe('Retry-After on every 503', () => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp();
  }, 120_000);

  it('answers the health check, the API and the provider 503 with Retry-After once the database is gone', async () => {
    const link = new URLSearchParams({ client_id: server.publicClient.clientId, redirect_uri: server.publicClient.redirectUri, response_type: 'code', scope: 'openid', state: 's' });
    await server.db.close();
    const answers = [
      await server.app.inject({ method: 'GET', url: '/healthz' }),
      await server.app.inject({ method: 'GET', url: `/api/sso/v3/authorize?${link}` }),
      await server.app.inject({ method: 'GET', url: `/oidc/auth?${link}` }),
    ];
    await server.app.close();
    for (const answer of answers) {
      expect(answer.statusCode).toBe(503);
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(answers[1]?.json()).toEqual({ error_code: 'server.unavailable', error_message: 'The service is temporarily unavailable. Please try again shortly.' });
  });
});
