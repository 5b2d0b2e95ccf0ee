import * as oidc from 'openid-client';
import type { DemoFapi2Keys } from './demo-fapi2-keys.ts';

/** What discovery needs of a demo client app: its id and how it authenticates. */
interface DiscoveringClient {
  clientId: string;
  secret?: string | undefined;
  fapi2?: DemoFapi2Keys;
}

/**
 * The demo's view of the provider, per client app: discovered on first use, not at start, so the demo never delays
 * or breaks the server's boot; a failed discovery is retried on the next sign-in rather than cached.
 */
export function demoDiscovery(issuer: URL, customFetch: oidc.CustomFetch | undefined): (client: DiscoveringClient) => Promise<oidc.Configuration> {
  const discovered = new Map<string, Promise<oidc.Configuration>>();
  return (client) => {
    let pending = discovered.get(client.clientId);
    if (!pending) {
      const auth = client.fapi2
        ? oidc.PrivateKeyJwt(client.fapi2.signingKey.key, { [oidc.modifyAssertion]: (header: Record<string, unknown>) => void (header.kid = client.fapi2?.signingKey.kid) })
        : client.secret === undefined
          ? oidc.None()
          : oidc.ClientSecretBasic(client.secret);
      pending = oidc.discovery(issuer, client.clientId, {}, auth, {
        execute: issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
        ...(customFetch ? { [oidc.customFetch]: customFetch } : {}),
      });
      pending.catch(() => discovered.delete(client.clientId));
      discovered.set(client.clientId, pending);
    }
    return pending;
  };
}
