import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { ThirdPartyOrigins } from './third-party-origins.ts';

/**
 * The web app's policy: scripts and styles only from this origin (plus the named origins of the services
 * switched on), never framed, nothing inline or eval'd, except the inline styles whose hashes are given
 * (the prerendered page's own stylesheet).
 */
export function webAppCsp(extra: ThirdPartyOrigins = {}, styleHashes: readonly string[] = []): string {
  const add = (directive: keyof ThirdPartyOrigins) => (extra[directive] ?? []).map((origin) => ` ${origin}`).join('');
  return [
    "default-src 'self'",
    `script-src 'self'${add('script-src')}`,
    ["style-src 'self'", ...styleHashes].join(' '),
    `img-src 'self' data:${add('img-src')}`,
    "font-src 'self'",
    `connect-src 'self'${add('connect-src')}`,
    ...(extra['frame-src']?.length ? [`frame-src${add('frame-src')}`] : []),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The policy with no third-party service on and no inline style. */
export const WEB_APP_CSP = webAppCsp();

/** Headers every response carries, the provider's included; HSTS only where the public address is https. */
export function securityHeaders(config: Pick<Config, 'publicUrl'>): Readonly<Record<string, string>> {
  return {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'x-frame-options': 'DENY',
    ...(config.publicUrl.startsWith('https:') ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}

/** Sets the headers every response carries; the CSP itself is set by each page's handler. */
export function installSecurityHeaders(app: FastifyInstance, config: Pick<Config, 'publicUrl'>): void {
  const headers = securityHeaders(config);
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.headers(headers);
    return payload;
  });
}
