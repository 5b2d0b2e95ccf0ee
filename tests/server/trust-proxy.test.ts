import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { parseTrustProxy } from '../../server/web/trust-proxy.ts';
import { openLoginScreen, submitLogin, TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['off', false],
    ['1', 1],
    ['2', 2],
    ['127.0.0.1', ['127.0.0.1']],
    ['10.0.0.0/8, 127.0.0.1, ::1, fd00::/8', ['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8']],
  ])('reads %j as %j', (raw, expected) => {
    expect(parseTrustProxy(raw)).toEqual({ value: expected });
  });

  it.each([
    ['true', 'cannot trust every proxy'],
    ['*', 'cannot trust every proxy'],
    ['lb.internal', 'not an address: "lb.internal"'],
    ['10.0.0.0/33', 'not an address: "10.0.0.0/33"'],
    ['11', 'hop count from 0 to 10'],
  ])('refuses %j at boot with one line naming it', (raw, reason) => {
    expect(() => loadConfig({ NODE_ENV: 'test', TRUST_PROXY: raw })).toThrow(reason);
    expect(() => loadConfig({ NODE_ENV: 'test', TRUST_PROXY: raw })).toThrow(/^TRUST_PROXY /);
  });
});

describe('per-IP limits behind a proxy', () => {
  let server: TestApp | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  /** Fails one sign-in from `peer` (the TCP address) with `forwardedFor`, and answers the address the per-IP limit counted. */
  async function addressCounted(env: Record<string, string>, peer: string, forwardedFor: string): Promise<string[]> {
    server = await startTestApp({ env: { MFA_REQUIRED: 'false', ...env } });
    const browser = new TestBrowser(server.app, peer);
    await openLoginScreen(browser, server.publicClient);
    const original = browser.request.bind(browser);
    browser.request = (method, url, body) => {
      if (method !== 'POST') return original(method, url, body);
      return server!.app.inject({
        method,
        url,
        remoteAddress: peer,
        headers: { cookie: browser.jar.header(url), 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
        payload: JSON.stringify(body),
      });
    };
    expect((await submitLogin(browser, server.user.email, 'Wrong-Passw0rd!')).statusCode).toBe(401);
    return (await server.db.query<{ ip: string }>('select ip from ip_failures')).rows.map((row) => row.ip);
  }

  it('counts the TCP peer and ignores X-Forwarded-For when TRUST_PROXY is off (the default)', async () => {
    expect(await addressCounted({}, '127.0.0.5', '192.0.2.44')).toEqual(['127.0.0.5']);
  });

  it('counts the client the trusted proxy names, with TRUST_PROXY as the proxy address', async () => {
    expect(await addressCounted({ TRUST_PROXY: '127.0.0.5' }, '127.0.0.5', '192.0.2.44')).toEqual(['192.0.2.44']);
  });

  it('believes only the last hop with TRUST_PROXY=1, so a client cannot choose its address by sending its own header', async () => {
    expect(await addressCounted({ TRUST_PROXY: '1' }, '127.0.0.5', '198.51.100.9, 192.0.2.44')).toEqual(['192.0.2.44']);
  });

  it('ignores X-Forwarded-For from a peer that is not a listed proxy', async () => {
    expect(await addressCounted({ TRUST_PROXY: '127.0.0.9' }, '127.0.0.5', '192.0.2.44')).toEqual(['127.0.0.5']);
  });
});

describe('a hop count at start', () => {
  it.each([
    ['1', true],
    ['10.0.0.0/8,127.0.0.1', false],
  ])('TRUST_PROXY=%s logs a warning recommending the proxies\' addresses: %s', { timeout: 120_000 }, async (raw, warns) => {
    const lines: Array<Record<string, unknown>> = [];
    const server = await startTestApp({ env: { TRUST_PROXY: raw, LOG_LEVEL: 'warn' }, logStream: { write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) } });
    await server.close();
    const warning = lines.find((line) => String(line.msg).startsWith('TRUST_PROXY is a hop count'));
    expect(warning !== undefined).toBe(warns);
    if (warning) expect(warning.msg).toContain("list the proxies' addresses instead");
  });
});
