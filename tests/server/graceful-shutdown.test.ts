import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../server/limits.ts';
import { startServerOnFreePort } from './support/processes.ts';

const SLOW = 120_000;
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the server has logged the login request as received (routed, its body still unread). */
async function received(output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!/"msg":"incoming request"[^\n]*auth\/login|auth\/login[^\n]*"msg":"incoming request"/.test(output())) {
    if (Date.now() > deadline) throw new Error(`the server never logged the request:\n${output()}`);
    await sleep(50);
  }
}

/** A login request whose body is sent in two halves, so it is in flight (routed, body unread) between them. */
function openHalfSentRequest(port: number) {
  const body = JSON.stringify({ email: 'someone@example.com', password: 'not-the-password' });
  const socket = net.connect(port, '127.0.0.1');
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => undefined);
  socket.write(
    `POST /api/sso/v3/auth/login HTTP/1.1\r\nHost: localhost:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
  );
  return { finish: () => socket.write(body.slice(10)), answer: () => answer, closed };
}

function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

async function startFreshServer() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sso-shutdown-'));
  dirs.push(dataDir);
  const server = await startServerOnFreePort((port) => ({ DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: `http://localhost:${port}`, SEED_DEMO: 'false', LOG_LEVEL: 'info' }));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => {
    server.child.removeAllListeners('exit');
    server.child.on('exit', (code) => resolve({ code, at: Date.now() }));
  });
  return { dataDir, ...server, exited };
}

describe('stopping the server with SIGTERM', () => {
  it('finishes the request in flight, refuses new connections, stops its workers, closes the database and exits 0', { timeout: SLOW }, async () => {
    const server = await startFreshServer();
    const request = openHalfSentRequest(server.port);
    await received(server.output);
    server.child.kill('SIGTERM');
    await sleep(500);
    expect(await connects(server.port)).toBe(false);
    request.finish();
    await request.closed;
    // Answered in full by the route (no transaction cookie: 401), not cut off and not refused with a 503.
    expect(request.answer()).toMatch(/^HTTP\/1\.1 401 /);
    expect(request.answer()).toContain('"error_code":"transaction.missing"');
    const { code } = await server.exited;
    expect(code).toBe(0);
    expect(server.output()).toContain('shutdown complete');
    expect(server.output()).not.toContain('Unsupported runtime');
    // The embedded database's lock and the CLI's admin file are gone: another process may open the data now.
    expect(fs.existsSync(path.join(server.dataDir, 'pglite.lock'))).toBe(false);
    expect(fs.existsSync(path.join(server.dataDir, 'admin.json'))).toBe(false);
  });

  it('waits for a stuck request only a bounded time, then cuts it and exits 0', { timeout: SLOW }, async () => {
    const server = await startFreshServer();
    const request = openHalfSentRequest(server.port);
    await received(server.output);
    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    const { code, at } = await server.exited;
    await request.closed;
    expect(code).toBe(0);
    expect(at - signalledAt).toBeGreaterThanOrEqual(LIMITS.SHUTDOWN_DRAIN_MS - 500);
    expect(at - signalledAt).toBeLessThan(LIMITS.SHUTDOWN_DRAIN_MS + LIMITS.SHUTDOWN_HOOK_MS + 10_000);
  });
});
