/**
 * The header policy on every route: each route of Fastify's table, the provider's endpoints and pages, the web
 * app's pages, error pages and 404s all answer with nosniff, no-referrer, same-origin opener policy, no framing and
 * HSTS (the public address is https here); every HTML page also has a CSP that forbids framing and inline script.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/support/test-app.ts';
import { routeTable } from './support/route-table.ts';

const PATH_VALUES: Record<string, string> = { client_id: 'sso-account', step: 'job-details', flagKey: 'newLogin' };

/** Addresses the route table cannot list: the provider's (behind one wildcard), the web app's, errors and 404s. */
const EXTRA_REQUESTS: { method: 'GET' | 'POST'; url: string }[] = [
  { method: 'GET', url: '/oidc/auth?client_id=nobody' },
  { method: 'GET', url: '/oidc/auth?client_id=sso-account&redirect_uri=https%3A%2F%2Fsso.example.com%2Fdemo%2Fauth%2Fcallback&response_type=code&scope=openid' },
  { method: 'GET', url: '/oidc/jwks' },
  { method: 'POST', url: '/oidc/token' },
  { method: 'GET', url: '/oidc/me' },
  { method: 'POST', url: '/oidc/token/revocation' },
  { method: 'GET', url: '/oidc/session/end' },
  { method: 'POST', url: '/oidc/session/end/confirm' },
  { method: 'GET', url: '/oidc/session/end/success' },
  { method: 'GET', url: '/oidc/not-a-provider-path' },
  { method: 'GET', url: '/auth/login' },
  { method: 'GET', url: '/auth/register' },
  { method: 'GET', url: '/auth/mfa/totp' },
  { method: 'GET', url: '/auth/assets/missing.js' },
  { method: 'GET', url: '/nothing-here' },
  { method: 'GET', url: '/api/sso/v3/nothing-here' },
  { method: 'GET', url: '/api/sso/v3/clients/%E0%A4%A' },
  { method: 'GET', url: `/api/sso/v3/clients/${'x'.repeat(150)}` },
  { method: 'GET', url: '/api/sso/v3/clients/%00' },
];

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>/i;

/** What is missing from an answer's headers, empty when it follows the policy. */
function policyGaps(response: LightMyRequestResponse): string[] {
  const expected: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'x-frame-options': 'DENY',
    'strict-transport-security': 'max-age=31536000; includeSubDomains',
  };
  const gaps = Object.entries(expected)
    .filter(([name, value]) => response.headers[name] !== value)
    .map(([name]) => `${name} is ${String(response.headers[name])}`);
  if (String(response.headers['content-type'] ?? '').startsWith('text/html')) {
    const csp = String(response.headers['content-security-policy'] ?? '');
    if (!csp.includes("frame-ancestors 'none'")) gaps.push(`an HTML page without frame-ancestors 'none' (${csp || 'no CSP'})`);
    if (/unsafe-inline|unsafe-eval/.test(csp)) gaps.push(`a CSP allowing inline or eval'd code: ${csp}`);
    if (INLINE_SCRIPT.test(response.body)) gaps.push('an inline script');
  }
  return gaps;
}

describe('the header policy on every route', () => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp({ env: { PUBLIC_URL: 'https://sso.example.com' } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('holds on each route of the table, the provider, the web app, error pages and 404s', async () => {
    const fromTable = routeTable(server.app)
      .filter((route) => !route.path.includes('*'))
      .flatMap((route) =>
        route.methods
          .filter((method): method is 'GET' | 'POST' => method === 'GET' || method === 'POST')
          .map((method) => ({ method, url: route.path.replace(/:([A-Za-z_]+)/g, (_match, name: string) => PATH_VALUES[name] ?? 'x') })),
      );
    const requests = [...fromTable, ...EXTRA_REQUESTS];
    const gaps: string[] = [];
    for (const request of requests) {
      const response = await server.app.inject({
        ...request,
        ...(request.method === 'POST' ? { headers: { 'content-type': 'application/json' }, payload: '{}' } : {}),
      });
      for (const gap of policyGaps(response)) gaps.push(`${request.method} ${request.url.slice(0, 80)} (${response.statusCode}): ${gap}`);
    }
    console.log(`header policy: ${requests.length} routes walked, ${gaps.length} gaps`);
    expect(gaps).toEqual([]);
    expect(fromTable.length).toBeGreaterThan(20);
  });
});
