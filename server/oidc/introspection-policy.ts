import type { Client, KoaContextWithOIDC } from 'oidc-provider';

/** The client metadata property naming the resource server (its RFC 8707 resource indicator) a client answers for. */
export const RESOURCE_SERVER_METADATA = 'sso_resource_server';

/** What the policy reads of a token: whose it is and whom it is for. */
interface IntrospectedToken {
  clientId?: string;
  aud?: string | string[];
}

/**
 * RFC 7662 §2.2: a token for a resource server (one with an audience, as client_credentials issues) is described
 * only to the resource servers named in its audience, not even to the service app holding it; a token without one (a
 * person's, for the userinfo endpoint) only to its own client. Every other caller learns `active: false`. A public
 * client cannot authenticate, so it learns nothing at all.
 */
export function introspectionAllowed(_ctx: KoaContextWithOIDC, client: Client, token: IntrospectedToken): boolean {
  if (client.clientAuthMethod === 'none') return false;
  const audience = [token.aud ?? []].flat();
  if (audience.length === 0) return token.clientId === client.clientId;
  const served = client.metadata()[RESOURCE_SERVER_METADATA];
  return typeof served === 'string' && audience.includes(served);
}
