/**
 * The QA scripts' server (scripts/fixtures/live-server.ts: npm run record, replay, screenshots, the studio) starts on
 * a free port, and on another one when the port it probed was taken before the server could bind it.
 */
import { createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/fixtures/free-port.ts';
import { startLiveServer } from '../../scripts/fixtures/live-server.ts';

/** A server process starting on a fresh embedded database, on a loaded machine. */
const SERVER_START_TIMEOUT_MS = 120_000;

/** What each test started, stopped after it. */
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A port something else listens on: it takes connections and never answers. */
async function takenPort(): Promise<number> {
  const sockets = new Set<Socket>();
  const holder = createServer((socket) => sockets.add(socket));
  cleanups.push(async () => {
    sockets.forEach((socket) => socket.destroy());
    await new Promise((resolve) => holder.close(resolve));
  });
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const address = holder.address();
  if (!address || typeof address !== 'object') throw new Error('no port');
  return address.port;
}

describe('the QA scripts’ live server', () => {
  it(
    'starts on another port when the one probed free was taken before the server bound it',
    async () => {
      const taken = await takenPort();
      const offered: number[] = [];
      const server = await startLiveServer({}, async () => {
        const port = offered.length === 0 ? taken : await freePort();
        offered.push(port);
        return port;
      });
      cleanups.push(server.stop);
      expect(offered).toHaveLength(2);
      expect(server.origin).toBe(`http://localhost:${offered[1]}`);
      expect((await fetch(`${server.origin}/healthz`)).ok).toBe(true);
    },
    SERVER_START_TIMEOUT_MS,
  );

  it(
    'gives up at once with the server’s own words when it fails for another reason than its port',
    async () => {
      let offered = 0;
      const start = startLiveServer({ env: { NODE_ENV: 'production' } }, async () => {
        offered += 1;
        return freePort();
      });
      await expect(start).rejects.toThrow(/the server did not start:\n[\s\S]*https/);
      expect(offered).toBe(1);
    },
    SERVER_START_TIMEOUT_MS,
  );
});
