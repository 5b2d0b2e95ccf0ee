import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.ts';

const API = '/api/sso/v3';

describe('bad input', () => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp();
  });
  afterAll(async () => {
    await server.close();
  });

  it.each([
    ['malformed JSON', { method: 'POST', url: `${API}/auth/login`, headers: { 'content-type': 'application/json' }, payload: '{"email": ' }, 400],
    ['a body that is too large', { method: 'POST', url: `${API}/auth/login`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email: 'x'.repeat(100_000) }) }, 413],
    ['a form-encoded body', { method: 'POST', url: `${API}/auth/login`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'email=a' }, 415],
    ['an unknown API path', { method: 'GET', url: `${API}/nothing-here` }, 404],
    ['an over-long query value', { method: 'GET', url: `${API}/authorize?client_id=${'x'.repeat(500)}` }, 400],
    ['a malformed PKCE challenge', { method: 'GET', url: `${API}/authorize?client_id=sso-account&code_challenge=short` }, 400],
    ['a second-factor step without a sign-in', { method: 'POST', url: `${API}/auth/mfa/verification`, headers: { 'content-type': 'application/json' }, payload: '{}' }, 401],
  ] as const)('answers %s with a JSON error, never a stack trace', async (_case, request, status) => {
    const response = await server.app.inject(request);
    expect(response.statusCode).toBe(status);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['error_code', 'error_message']);
    expect(response.body).not.toMatch(/at .+\.ts:\d+|stack/i);
  });

  it('reports the database state at /healthz', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'up' });
  });

  it('answers the analytics configuration with data.gtmId', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/gaid' });
    expect(response.json()).toEqual({ data: { gtmId: null } });
  });
});
