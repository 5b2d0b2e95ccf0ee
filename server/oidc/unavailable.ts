import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { LIMITS } from '../limits.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';

/** The OAuth error for a server that cannot answer now (RFC 6749, section 4.1.2.1). */
const UNAVAILABLE_BODY = { error: 'temporarily_unavailable', error_description: 'The service is temporarily unavailable. Please try again shortly.' };

/**
 * Makes the provider answer a database out of reach as the API does: 503 with Retry-After, never a 500, and gives
 * every 429 and 503 it sends a Retry-After. The provider reports its server errors by event, with the request's
 * context, so the context is marked there and its answer rewritten once the provider is done with it.
 */
export function installUnavailableAnswers(provider: Provider): void {
  const databaseDown = new WeakSet<object>();
  provider.on('server_error', (ctx: KoaContextWithOIDC, error: unknown) => {
    if (isDatabaseUnavailable(error)) databaseDown.add(ctx);
  });
  provider.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      databaseDown.add(ctx);
      ctx.status = 500;
    }
    if (ctx.status === 500 && databaseDown.has(ctx)) {
      ctx.status = 503;
      if (typeof ctx.body !== 'string') ctx.body = UNAVAILABLE_BODY;
    }
    if ((ctx.status === 429 || ctx.status === 503) && !ctx.response.get('retry-after')) ctx.set('retry-after', String(LIMITS.UNAVAILABLE_RETRY_AFTER));
  });
}
