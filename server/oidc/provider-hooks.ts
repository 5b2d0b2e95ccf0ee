import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { recordSecurityEvent } from '../store/security-events.ts';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The provider's outgoing requests (back-channel logout tokens). oidc-provider refuses loopback and private
 * addresses (SSRF protection); outside production a client app on this machine (the demo, a developer's app) may
 * still be told, so loopback is allowed there, and only there.
 */
export function outgoingFetch(config: Config): typeof fetch {
  return (input, init) => {
    const url = input instanceof Request ? input.url : input;
    const loopback = LOOPBACK_HOSTS.has(new URL(url).hostname);
    // `dispatcher` is undici's (Node's fetch) way in; oidc-provider puts its SSRF-checking one there.
    return globalThis.fetch(input, config.env !== 'production' && loopback ? ({ ...init, dispatcher: undefined } as RequestInit) : init);
  };
}

/** Records a sign-out at the provider (RP-Initiated Logout) in the audit trail. */
export async function recordSignOut(db: Database, ctx: KoaContextWithOIDC): Promise<void> {
  const session = ctx.oidc.session;
  const accountId = session?.accountId;
  if (typeof accountId !== 'string') return;
  const everywhere = ctx.oidc.params?.logout !== undefined && ctx.oidc.params.logout !== '';
  await recordSecurityEvent(db, {
    userId: accountId,
    kind: 'session_ended',
    at: new Date(),
    ip: ctx.ip,
    userAgent: ctx.get('user-agent') || undefined,
    detail: { reason: everywhere ? 'signed_out' : 'signed_out_of_app', session_id: session?.uid, client_id: ctx.oidc.client?.clientId },
  });
}
