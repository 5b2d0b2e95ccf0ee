import { recoveryCodeHint } from '../mfa/recovery-code-hint.ts';
import { Ajv } from 'ajv';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/database.ts';
import { passkeysPossible } from '../mfa/passkey-host.ts';
import { findClientInfo } from '../store/clients.ts';
import { clientSignInStart, findInvitation, invitationState } from '../store/invitations.ts';
import type { SignInTransaction } from '../store/transactions.ts';
import { findUserById } from '../store/users.ts';
import type { Services } from '../services.ts';
import { ApiError } from '../errors.ts';
import { isPlainClientLink, plainClientLinkTarget } from './plain-client-link.ts';
import { responses, STEP_ANSWER } from './response-schemas.ts';
import { currentTransaction } from './step-guard.ts';
import { restartable } from '../store/sign-in-restart.ts';
import { SERVER_CHALLENGES } from '../flows/challenges.ts';

interface AuthorizeQuery {
  client_id?: string;
  redirect_uri?: string;
  state?: string;
  nonce?: string;
  scope?: string;
  response_type?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  interaction?: string;
  /** OIDC's prompt, sent on to the provider (`create` asks for the register screen). */
  prompt?: string;
  /** OIDC's max_age, sent on to the provider: the client wants a sign-in no older than this (a trusted browser does not count). */
  max_age?: string;
  /** OIDC's acr_values and claims, sent on to the provider: the client wants a sign-in of that level (server/oidc/acr.ts). */
  acr_values?: string;
  claims?: string;
  /** OIDC's ui_locales, sent on to the provider, which hands it to the login screen. */
  ui_locales?: string;
  /** Prefills the email on the login screen; sent on to the provider as OIDC's login_hint. */
  username?: string;
  /** The token of an emailed invitation link. */
  invitation?: string;
}

const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;

const querySchema = {
  type: 'object',
  additionalProperties: true,
  properties: {
    client_id: text(200),
    redirect_uri: text(2000),
    state: text(2000),
    nonce: text(500),
    scope: text(500),
    response_type: text(50),
    code_challenge: { type: 'string', pattern: '^[A-Za-z0-9._~-]{43,128}$' },
    code_challenge_method: text(20),
    interaction: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,100}$' },
    username: text(254),
    invitation: { type: 'string', pattern: '^[A-Za-z0-9_-]{20,100}$' },
    prompt: text(100),
    max_age: { type: 'string', pattern: '^[0-9]{1,9}$' },
    acr_values: text(500),
    claims: text(2000),
    ui_locales: text(200),
  },
} as const;

/** A step's answer, or what an invitation link's check found. */
const AUTHORIZE_ANSWER = { type: 'object', properties: { ...STEP_ANSWER.properties, invitation: { type: 'string' } } } as const;

/** The OIDC authorization request a direct link stands for, sent on to oidc-provider. */
function authorizationUrl(publicUrl: string, query: AuthorizeQuery & { client_id: string; redirect_uri: string }): string {
  const url = new URL('/oidc/auth', publicUrl);
  url.searchParams.set('client_id', query.client_id);
  url.searchParams.set('redirect_uri', query.redirect_uri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', query.scope ?? 'openid email profile');
  for (const name of ['state', 'nonce', 'code_challenge', 'code_challenge_method', 'prompt', 'max_age', 'acr_values', 'claims', 'ui_locales'] as const) {
    const value = query[name];
    if (value !== undefined) url.searchParams.set(name, value);
  }
  if (query.username) url.searchParams.set('login_hint', query.username);
  if (query.invitation) {
    url.searchParams.set('invitation', query.invitation);
    // An invitation signs in the invited person, never whoever already has a session in this browser.
    url.searchParams.set('prompt', 'login');
  }
  return url.href;
}

/**
 * Checks a direct link (client_id, redirect_uri, PKCE) against the client's registration and answers the
 * authorization request it stands for; throws the API's error for a link that must not go on.
 */
async function directLinkTarget(context: Pick<Services, 'config' | 'db'>, query: AuthorizeQuery): Promise<string> {
  if (!query.client_id) throw new ApiError('client.missing');
  const client = await findClientInfo(context.db, query.client_id);
  if (!client) throw new ApiError('client.unknown');
  // Exact string match: no prefix, wildcard or normalisation, so no open redirect can slip through.
  if (query.redirect_uri === undefined || !client.redirectUris.includes(query.redirect_uri)) {
    throw new ApiError('client.redirect_uri_mismatch');
  }
  if (query.response_type !== undefined && query.response_type !== 'code') throw new ApiError('request.invalid', 'Only response_type=code is supported.');
  const method = query.code_challenge_method;
  if (method !== undefined && method !== 'S256') throw new ApiError('client.pkce_required');
  // Every client, confidential ones too, must use PKCE (RFC 9700 §2.1.1).
  if (query.code_challenge === undefined || method !== 'S256') throw new ApiError('client.pkce_required');
  return authorizationUrl(context.config.publicUrl, { ...query, client_id: client.clientId, redirect_uri: query.redirect_uri });
}

const validDirectLink = new Ajv({ strict: false }).compile<AuthorizeQuery>(querySchema);

/**
 * For the web app's page route: where a client's link to the login screen goes straight away, so the browser
 * renders the screen once, after the provider's redirect, instead of loading the app only to be sent on. Undefined
 * for any link that is not a plain, valid direct link: the app then loads and shows the error screen (or the
 * invitation's outcome) exactly as before; nothing off the client's list is ever redirected to. A plain link (the app
 * named, no request of its own) goes to the app's registered sign-in start.
 */
export function directLinkRedirect(context: Pick<Services, 'config' | 'db'>) {
  return async (query: Record<string, unknown>): Promise<string | undefined> => {
    if (typeof query.client_id !== 'string' || query.interaction !== undefined || query.invitation !== undefined || !validDirectLink(query)) return undefined;
    try {
      // A link naming the app with no request of its own goes to the app's sign-in start (its own origin).
      if (isPlainClientLink(query)) return await plainClientLinkTarget(context.db, context.config.publicUrl, query);
      const target = new URL(await directLinkTarget(context, query));
      return `${target.pathname}${target.search}`;
    } catch (error) {
      if (error instanceof ApiError) return undefined;
      throw error;
    }
  };
}

/** What the invitation step shows: the invited address, prefilled and fixed, and any names the account has already. */
async function invitationParameters(db: Queryable, transaction: SignInTransaction): Promise<Record<string, unknown>> {
  const invitation = transaction.data.invitation as { email?: unknown } | undefined;
  if (typeof invitation?.email !== 'string') return {};
  const user = transaction.userId ? await findUserById(db, transaction.userId) : undefined;
  const names = { given_name: user?.firstName || undefined, family_name: user?.lastName || undefined };
  return { invitation: true, email: invitation.email, ...names };
}

/**
 * `GET authorize`: the web app's first call. A direct link (client_id, redirect_uri, state) is checked and sent
 * through oidc-provider; once an interaction exists, it answers the challenge the transaction is at.
 */
export function authorizeRoutes(context: Pick<Services, 'config' | 'db' | 'clock' | 'provider' | 'flows'>) {
  return async (app: FastifyInstance) => {
    app.get<{ Querystring: AuthorizeQuery }>('/authorize', { schema: { querystring: querySchema, response: responses(AUTHORIZE_ANSWER) } }, async (request) => {
      const query = request.query;
      if (query.interaction !== undefined) {
        const transaction = (await currentTransaction(context, request))?.transaction;
        // A sign-in this browser finished, or that expired, has no transaction any more: its own honest screen says so.
        if (!transaction || transaction.interactionUid !== query.interaction) throw new ApiError('transaction.missing');
        if (!(await context.provider.Interaction.find(query.interaction))) throw new ApiError('transaction.missing');
        const client = await findClientInfo(context.db, transaction.clientId);
        const parameters = {
          client_id: transaction.clientId,
          client_name: client?.name ?? null,
          // Only where none can work (PUBLIC_URL on an IP address): the login screen then offers no passkey.
          ...(passkeysPossible(context.config) ? {} : { passkeys: false }),
          ...(await invitationParameters(context.db, transaction)),
          // A second-factor screen come back to by its address still offers "Use a recovery code" only to one who has some.
          ...(transaction.userId ? await recoveryCodeHint(context.db, { userId: transaction.userId }) : {}),
          // Where the sign-in stands, asked by a screen entered by its address (Back, Forward, a reload), not the outcome
          // of a submit: a screen the sign-in may return to shows itself on this answer rather than sending the person on.
          resumed: true,
          // The login screen, come Back to from the second factor, may take the password again (server/store/sign-in-restart.ts).
          ...(transaction.challenge !== SERVER_CHALLENGES.LOGIN_REQUIRED && restartable(transaction) && context.flows.stepFor('auth/login', transaction.challenge)
            ? { restartable: true }
            : {}),
        };
        return { challenge: transaction.challenge, parameters };
      }
      if (query.invitation !== undefined) {
        const invitation = await findInvitation(context.db, query.invitation);
        // An unknown link reads as an expired one. A used one (accepted, or its account has a password by any path) says
        // so, to offer "Log in" rather than a fresh invitation: only the mailbox holding the link learns it.
        if (!invitation) return { invitation: 'expired' };
        const state = invitationState(invitation, new Date(context.clock()));
        if (state !== 'usable') return { invitation: state };
        if (query.client_id === undefined) {
          // The link starts at the client app, so the sign-in it makes carries the app's own state and PKCE.
          const start = await clientSignInStart(context.db, invitation.clientId);
          if (start === undefined) throw new ApiError('auth.init_failed');
          const url = new URL(start);
          url.searchParams.set('invitation', query.invitation);
          return { redirect_to: url.href };
        }
      }
      if (isPlainClientLink(query)) return { redirect_to: await plainClientLinkTarget(context.db, context.config.publicUrl, query) };
      return { redirect_to: await directLinkTarget(context, query) };
    });
  };
}
