import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.ts';

describe('request ids', () => {
  let server: TestApp | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function start(env: Record<string, string>) {
    const lines: Record<string, unknown>[] = [];
    server = await startTestApp({ env, logStream: { write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) } });
    return lines;
  }

  it('answers every request with its id, and every log line of that request carries the same id', async () => {
    const lines = await start({ LOG_LEVEL: 'info' });
    const response = await server!.app.inject({ method: 'GET', url: '/api/sso/v3/clients/no-such-client' });
    const id = response.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const ofRequest = lines.filter((line) => line.reqId === id);
    expect(ofRequest.map((line) => line.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
    const other = await server!.app.inject({ method: 'GET', url: '/healthz' });
    expect(other.headers['x-request-id']).not.toBe(id);
  });

  it("keeps a trusted proxy's X-Request-Id, and ignores one sent by anyone else", async () => {
    await start({ TRUST_PROXY: '127.0.0.1' });
    const proxied = await server!.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '127.0.0.1', headers: { 'x-request-id': 'lb-4f1c2a9e' } });
    expect(proxied.headers['x-request-id']).toBe('lb-4f1c2a9e');
    const direct = await server!.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '127.0.0.7', headers: { 'x-request-id': 'lb-4f1c2a9e' } });
    expect(direct.headers['x-request-id']).not.toBe('lb-4f1c2a9e');
    const forged = await server!.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '127.0.0.1', headers: { 'x-request-id': 'x\n{"msg":"forged"}' } });
    expect(forged.headers['x-request-id']).not.toContain('forged');
  });

  it('logs at the configured level: warn leaves out the per-request info lines', async () => {
    const lines = await start({ LOG_LEVEL: 'warn' });
    await server!.app.inject({ method: 'GET', url: '/healthz' });
    expect(lines.filter((line) => line.msg === 'incoming request')).toEqual([]);
  });
});
