import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calculatePKCECodeChallenge, randomPKCECodeVerifier } from 'openid-client';
import { TestBrowser } from '../server/support/sign-in.ts';
import { startTestApp, TEST_PUBLIC_URL, type TestApp } from '../server/support/test-app.ts';
import { campaignCounter } from './support/campaign.ts';

const API = '/api/sso/v3';

/** Ways an attacker bends a registered redirect URI, each of which must be refused. */
function mutations(registered: string): string[] {
  const url = new URL(registered);
  const { host, hostname, pathname, port } = url;
  // The other loopback name for the same port, and another port of the same host (the demo app has an origin of its own).
  const otherLoopback = hostname === '127.0.0.1' ? 'localhost' : '127.0.0.1';
  const otherPort = Number(port || 80) + 1;
  return [
    registered.toUpperCase(),
    registered.replace(pathname, pathname.toUpperCase()),
    registered.replace('http://', 'HTTP://'),
    `${registered}/`,
    registered.slice(0, -1),
    `${registered}/extra`,
    `${registered}/../../evil`,
    `${registered}%2F..%2F..%2Fevil`,
    `${registered}?next=https://evil.example`,
    `${registered}?`,
    `${registered}#`,
    `${registered}#https://evil.example`,
    `http://evil.example@${host}${pathname}`,
    `http://${host}@evil.example${pathname}`,
    `http://${host}.evil.example${pathname}`,
    `http://evil.example/${host}${pathname}`,
    `http://evil.example\\@${host}${pathname}`,
    `http://${host}\\@evil.example${pathname}`,
    registered.replace(/\//g, '\\'),
    `http:\\\\evil.example${pathname}`,
    `//evil.example${pathname}`,
    `///evil.example${pathname}`,
    registered.replace('callback', 'callbac%6B'),
    registered.replace('/auth/', '/auth%2F'),
    registered.replace('/auth/', '/./auth/'),
    `http://${hostname}:${otherPort}${pathname}`,
    `http://${hostname}:80${pathname}`,
    `https://${host}${pathname}`,
    `ftp://${host}${pathname}`,
    `http://${otherLoopback}:${port || 80}${pathname}`,
    `http://xn--lcalhost-9za:8080${pathname}`,
    `http://lоcalhost:8080${pathname}`,
    `javascript:alert(1)//${host}${pathname}`,
    `data:text/html,<script>location='https://evil.example'</script>`,
    `${registered}%00https://evil.example`,
    `${registered}%23@evil.example`,
    ` ${registered}`,
    `${registered} `,
    'https://evil.example',
  ];
}

/** Whether `location` sends the browser somewhere the client did not register (our own pages are fine). */
function offList(location: string | undefined, registered: string): boolean {
  if (location === undefined) return false;
  let target: URL;
  try {
    target = new URL(location, TEST_PUBLIC_URL);
  } catch {
    return true;
  }
  if (target.origin !== new URL(TEST_PUBLIC_URL).origin) return true;
  const carriesResult = target.searchParams.has('code') || target.searchParams.has('error');
  return carriesResult && `${target.origin}${target.pathname}` !== registered;
}

describe('redirect_uri mutations', () => {
  const counter = campaignCounter('redirect_uri mutations (answers that redirect off the registered list)');
  let server: TestApp;
  let challenge: string;
  beforeAll(async () => {
    server = await startTestApp();
    challenge = await calculatePKCECodeChallenge(randomPKCECodeVerifier());
  }, 120_000);
  afterAll(async () => {
    counter.print();
    await server.close();
  });

  const query = (redirectUri: string) =>
    new URLSearchParams({
      client_id: server.publicClient.clientId,
      redirect_uri: redirectUri,
      state: 'state-1',
      response_type: 'code',
      scope: 'openid',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });

  it('has at least 30 mutations, none of them the registered address', () => {
    const registered = server.publicClient.redirectUri;
    const list = mutations(registered);
    expect(list.length).toBeGreaterThanOrEqual(30);
    expect(list).not.toContain(registered);
  });

  it('never redirects off the list from the step API, the login link or /oidc/auth', { timeout: 120_000 }, async () => {
    const registered = server.publicClient.redirectUri;
    const escapes: string[] = [];
    for (const mutated of mutations(registered)) {
      const browser = new TestBrowser(server.app);
      const authorize = await browser.request('GET', `${API}/authorize?${query(mutated)}`);
      const redirectTo = authorize.statusCode === 200 ? authorize.json<{ redirect_to?: string }>().redirect_to : undefined;
      const forwarded = redirectTo === undefined ? undefined : new URL(redirectTo).searchParams.get('redirect_uri');
      const stepOk = authorize.statusCode < 500 && (redirectTo === undefined || forwarded === registered) && !offList(authorize.headers.location as string | undefined, registered);
      // The login link only serves the web app (503 while it is not built), which then asks the step API above.
      const link = await browser.request('GET', `/auth/login?${query(mutated)}`);
      const linkOk = link.statusCode !== 500 && !offList(link.headers.location as string | undefined, registered);
      const provider = await browser.request('GET', `/oidc/auth?${query(mutated)}`);
      const providerOk = provider.statusCode < 500 && !offList(provider.headers.location as string | undefined, registered);
      for (const [where, ok] of [['authorize', stepOk], ['login link', linkOk], ['/oidc/auth', providerOk]] as const) {
        counter.record(ok);
        if (!ok) escapes.push(`${where}: ${mutated}`);
      }
    }
    expect(escapes).toEqual([]);
  });
});
