import type { Queryable } from '../db/database.ts';
import { ApiError } from '../errors.ts';
import { findClientInfo } from '../store/clients.ts';
import { clientSignInStart } from '../store/invitations.ts';

/** What a link to the login or register screen may carry. */
export interface ClientLinkQuery {
  client_id?: string;
  redirect_uri?: string;
  state?: string;
  nonce?: string;
  response_type?: string;
  code_challenge?: string;
  interaction?: string;
  invitation?: string;
  prompt?: string;
  username?: string;
}

/**
 * A link that names a client app but carries no authorization request of its own (`/auth/register?client_id=X`, a
 * link copied into a mail or a web page): no return address, no state, nonce, PKCE or response type, no sign-in under
 * way and no invitation. Only the app can start its sign-in, with its own state and PKCE. An app's own request always
 * carries its return address, so sending a plain link to the app can never loop.
 */
export function isPlainClientLink(query: ClientLinkQuery): query is ClientLinkQuery & { client_id: string } {
  if (typeof query.client_id !== 'string' || query.client_id === '') return false;
  const request = [query.redirect_uri, query.state, query.nonce, query.response_type, query.code_challenge, query.interaction, query.invitation];
  return request.every((value) => value === undefined);
}

/**
 * OpenID Connect third-party-initiated login (Core 1.0, section 4): the client's `initiate_login_uri` with `iss` (this
 * provider), `login_hint` (the email the link carried) and, for a registration link, `prompt=create`, so the app's
 * request opens the register screen.
 */
export function thirdPartyLoginUrl(start: string, issuer: string, query: ClientLinkQuery): string {
  const url = new URL(start);
  url.searchParams.set('iss', issuer);
  if (query.username) url.searchParams.set('login_hint', query.username);
  if (query.prompt === 'create') url.searchParams.set('prompt', 'create');
  return url.href;
}

/**
 * Where a plain link goes: the client's sign-in start. A client with none answers `client.open_app_first`, whose screen
 * says in plain words to open the app first and links to it; an unknown client answers `client.unknown`.
 */
export async function plainClientLinkTarget(db: Queryable, issuer: string, query: ClientLinkQuery & { client_id: string }): Promise<string> {
  const client = await findClientInfo(db, query.client_id);
  if (!client) throw new ApiError('client.unknown');
  const start = await clientSignInStart(db, client.clientId);
  if (start === undefined) throw new ApiError('client.open_app_first');
  return thirdPartyLoginUrl(start, issuer, query);
}
