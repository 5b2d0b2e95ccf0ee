import type { KoaContextWithOIDC, Interaction } from 'oidc-provider';
import type { Config } from '../config.ts';
import type { Services } from '../services.ts';
import { startSignIn } from '../sign-in/start-sign-in.ts';
import { transactionCookieName, transactionCookieOptions } from './transaction-cookie.ts';

/** The query values the web app carries from screen to screen. */
const CARRIED = ['client_id', 'redirect_uri', 'state'] as const;

/**
 * oidc-provider's `interactions.url`: when an authorization request needs the user, start a sign-in transaction,
 * hand the browser its token in an HttpOnly cookie, and send it to the web app's login (or, for prompt=create, register) screen.
 */
export function createInteractionStart(deps: Pick<Services, 'db' | 'clock'> & { config: Pick<Config, 'publicUrl'> }) {
  return async (ctx: KoaContextWithOIDC, interaction: Interaction): Promise<string> => {
    const params = interaction.params as Record<string, unknown>;
    const clientId = String(params.client_id ?? '');
    const invitation = typeof params.invitation === 'string' ? params.invitation : undefined;
    const origin = { ip: ctx.ip, userAgent: ctx.get('user-agent') || undefined };
    const token = await startSignIn(deps, { interactionUid: interaction.uid, clientId, invitation, origin });
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
