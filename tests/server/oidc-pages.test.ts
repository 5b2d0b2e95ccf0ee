import type { KoaContextWithOIDC } from 'oidc-provider';
import { describe, expect, it } from 'vitest';
import { renderError } from '../../server/oidc/pages.ts';

/** Just enough of a Koa context for a page renderer: headers, the language cookie and header, type and body. */
function fakeContext() {
  const headers: Record<string, string> = {};
  const ctx = { set: (values: Record<string, string>) => Object.assign(headers, values), get: () => '', cookies: { get: () => undefined }, type: '', body: '' };
  return { ctx, headers, asKoa: ctx as unknown as KoaContextWithOIDC };
}

describe('the provider error page', () => {
  it('shows plain words and a way on, never the error or its description (developer words, and the text of the request)', () => {
    const { ctx, asKoa } = fakeContext();
    renderError(asKoa, { error: '<b>bad</b>', error_description: '<script>alert(1)</script>' });
    expect(ctx.body).toContain('<title>Error</title>');
    expect(ctx.body).not.toContain('alert(1)');
    expect(ctx.body).not.toContain('bad</b>');
    expect(ctx.body).not.toContain('<script>');
    expect(ctx.body).toContain('href="/auth/account"');
  });

  it('carries its own security headers, since Fastify hooks do not run for provider responses', () => {
    const { headers, asKoa } = fakeContext();
    renderError(asKoa, { error: 'invalid_request' });
    expect(headers['content-security-policy']).toContain("default-src 'none'");
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['cache-control']).toBe('no-store');
  });
});
