import { createHash, randomBytes } from 'node:crypto';

/**
 * An authorization request's query as a client app's OIDC library writes it: the code flow, a fresh `state`, and
 * PKCE with S256 (the challenge of a verifier these tests never need back). `fields` adds to it or overrides it;
 * read the state back with `.get('state')`.
 */
export function authorizationQuery(clientId: string, redirectUri: string, fields: Record<string, string> = {}): URLSearchParams {
  return new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid',
    state: randomBytes(16).toString('base64url'),
    code_challenge: createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url'),
    code_challenge_method: 'S256',
    ...fields,
  });
}
