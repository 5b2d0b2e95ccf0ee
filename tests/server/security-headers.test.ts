/**
 * The headers every response carries (pages, assets and API answers alike), and HSTS only where
 * the public address is https, since a browser would pin a plain-http development host otherwise.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installSecurityHeaders, WEB_APP_CSP } from '../../server/web/security-headers.ts';

async function answerFrom(publicUrl: string) {
  const app = Fastify();
  installSecurityHeaders(app, { publicUrl });
  app.get('/api/sso/v3/anything', async () => ({ ok: true }));
  const response = await app.inject({ method: 'GET', url: '/api/sso/v3/anything' });
  await app.close();
  return response;
}

describe('security headers', () => {
  it('sends no-referrer, nosniff, same-origin opener policy and no framing on every response', async () => {
    const response = await answerFrom('http://localhost:8080');
    expect(response.headers).toMatchObject({
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'cross-origin-opener-policy': 'same-origin',
      'x-frame-options': 'DENY',
    });
  });

  it('sends HSTS when the public address is https', async () => {
    const response = await answerFrom('https://sso.example.com');
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('sends no HSTS over plain http', async () => {
    const response = await answerFrom('http://localhost:8080');
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it("the page policy allows nothing inline or eval'd and no framing", () => {
    expect(WEB_APP_CSP).not.toMatch(/unsafe-(eval|inline)|unsafe-hashes|\*/);
    expect(WEB_APP_CSP).toContain("frame-ancestors 'none'");
    expect(WEB_APP_CSP).toContain("script-src 'self'");
    expect(WEB_APP_CSP).toContain("object-src 'none'");
  });
});
