import net from 'node:net';
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
    ['a path that does not decode', { method: 'GET', url: `${API}/clients/%E0%A4%A` }, 400],
    ['a path parameter longer than the router allows', { method: 'GET', url: `${API}/clients/${'x'.repeat(150)}` }, 414],
    ['an unknown method on the API', { method: 'PATCH', url: `${API}/auth/login` }, 404],
    ['a second-factor step without a sign-in', { method: 'POST', url: `${API}/auth/mfa/verification`, headers: { 'content-type': 'application/json' }, payload: '{}' }, 401],
  ] as const)('answers %s with a JSON error, never a stack trace', async (_case, request, status) => {
    const response = await server.app.inject(request);
    expect(response.statusCode).toBe(status);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['error_code', 'error_message']);
    expect(response.body).not.toMatch(/at .+\.ts:\d+|stack/i);
  });

  it('answers headers too large for the HTTP parser (431) with a JSON error and the security headers', async () => {
    const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(`GET ${API}/gaid HTTP/1.1\r\nHost: localhost\r\nX-Filler: ${'x'.repeat(20_000)}\r\n\r\n`);
      });
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    const [head = '', body = ''] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head.toLowerCase()).toContain('x-content-type-options: nosniff');
    expect(JSON.parse(body)).toEqual({ error_code: 'request.headers_too_large', error_message: 'The request headers are too large.' });
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
