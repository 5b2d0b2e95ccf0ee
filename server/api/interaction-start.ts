import type { KoaContextWithOIDC, Interaction } from 'oidc-provider';
import type { Clock } from '../clock.ts';
import { LIMITS, type Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { findInvitation, isUsable } from '../store/invitations.ts';
import { advanceTransaction, createTransaction, recordInTransaction } from '../store/transactions.ts';
import { transactionCookieName, transactionCookieOptions } from './transaction-cookie.ts';
import { SERVER_CHALLENGES } from '../flows/challenges.ts';

/** The query values the web app carries from screen to screen. */
const CARRIED = ['client_id', 'redirect_uri', 'state'] as const;

/**
 * oidc-provider's `interactions.url`: when an authorization request needs the user, start a sign-in transaction,
 * hand the browser its token in an HttpOnly cookie, and send it to the web app's login (or, for prompt=create, register) screen.
 */
export function createInteractionStart(deps: { config: Config; db: Database; clock: Clock }) {
  return async (ctx: KoaContextWithOIDC, interaction: Interaction): Promise<string> => {
    const params = interaction.params as Record<string, unknown>;
    const clientId = String(params.client_id ?? '');
    const expiresAt = new Date(deps.clock() + LIMITS.TRANSACTION_TTL * 1000);
    const token = await createTransaction(deps.db, { interactionUid: interaction.uid, clientId, challenge: SERVER_CHALLENGES.LOGIN_REQUIRED, expiresAt });
    const invitation = typeof params.invitation === 'string' ? await findInvitation(deps.db, params.invitation) : undefined;
    if (invitation && isUsable(invitation, new Date(deps.clock()))) {
      // The link proves the mailbox, not the person: the sign-in starts at choosing a password, which redeems it.
      const challenge = SERVER_CHALLENGES.NEW_PASSWORD_REQUIRED;
      await advanceTransaction(deps.db, token, SERVER_CHALLENGES.LOGIN_REQUIRED, { challenge, userId: invitation.userId });
      await recordInTransaction(deps.db, token, challenge, { invitation: { id: invitation.id, email: invitation.email } });
    }
    const options = transactionCookieOptions(deps.config);
    ctx.cookies.set(transactionCookieName(deps.config), token, { ...options, maxAge: options.maxAge * 1000, signed: false, overwrite: true });
    const query = new URLSearchParams();
    for (const name of CARRIED) {
      const value = params[name];
      if (typeof value === 'string') query.set(name, value);
    }
    // OIDC's login_hint (or a direct link's username, sent on as login_hint) prefills the email.
    if (typeof params.login_hint === 'string') query.set('username', params.login_hint);
    query.set('interaction', interaction.uid);
    // OIDC's prompt=create asks for sign-up rather than log-in.
    return interaction.prompt.name === 'create' ? `/auth/register?${query}` : `/auth/login?${query}`;
  };
}
