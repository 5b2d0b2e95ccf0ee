import type { KoaContextWithOIDC, Interaction } from 'oidc-provider';
import type { Config } from '../config.ts';
import type { Services } from '../services.ts';
import { startConsent, startSignIn } from '../sign-in/start-sign-in.ts';
import { completeConsent, consentScopes, isFirstParty, type ConsentRequest } from '../oidc/consent.ts';
import { browserCookieName, transactionCookieName, transactionCookieOptions, trustCookieName } from './transaction-cookie.ts';
import { trustTokenHash } from '../auth/trusted-devices.ts';
import { LIMITS } from '../limits.ts';
import { ACR, levelOf, requestedLevel } from '../oidc/acr.ts';
import { randomToken, sha256 } from '../crypto/hash.ts';

/** The browser's own token when it has a well-formed one, else a fresh one. */
function knownBrowserToken(cookie: string | undefined): string {
  return cookie !== undefined && /^[A-Za-z0-9_-]{43}$/.test(cookie) ? cookie : randomToken(32);
}

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
    const options = transactionCookieOptions(deps.config);
    const browser = knownBrowserToken(ctx.cookies.get(browserCookieName(deps.config), { signed: false }));
    ctx.cookies.set(browserCookieName(deps.config), browser, { ...options, maxAge: LIMITS.KNOWN_BROWSER_TTL * 1000, signed: false, overwrite: true });
    const origin = { ip: ctx.ip, userAgent: ctx.get('user-agent') || undefined, browserHash: sha256(browser) };
    // prompt=login or max_age: the client wants the person to prove every factor now, so a trusted browser does not count.
    const freshAuth = String(params.prompt ?? '').split(' ').includes('login') || params.max_age !== undefined;
    // acr_values (or an acr claim request) at the second-factor level or above: a factor is proven now, trust or not.
    const secondFactorRequired = (requestedLevel(params) ?? 0) >= levelOf(ACR.mfa);
    // The phishing-resistant level: a passkey is proven now (server/sign-in/gates/second-factor.ts).
    const passkeyRequired = (requestedLevel(params) ?? 0) >= levelOf(ACR.phishingResistant);
    const trustHash = trustTokenHash(ctx.cookies.get(trustCookieName(deps.config), { signed: false }));
    const trust = { trustHash, freshAuth, secondFactorRequired, passkeyRequired };
    const consent: ConsentRequest = {
      scopes: consentScopes(params),
      prompt: String(params.prompt ?? '').split(' ').includes('consent'),
      firstParty: isFirstParty(ctx.oidc.client),
    };
    // Signed in already, the person owes only consent: a first-party app needs none, any other asks for it alone.
    const accountId = interaction.prompt.name === 'consent' ? interaction.session?.accountId : undefined;
    if (accountId !== undefined && consent.firstParty) {
      const returnTo = await completeConsent(ctx.oidc.provider, interaction.uid, accountId, []);
      if (returnTo !== undefined) return returnTo;
    }
    const token =
      accountId === undefined
        ? await startSignIn(deps, { interactionUid: interaction.uid, clientId, invitation, origin, trust, consent })
        : await startConsent(deps, { interactionUid: interaction.uid, clientId, userId: accountId, consent, origin });
    ctx.cookies.set(transactionCookieName(deps.config), token, { ...options, maxAge: options.maxAge * 1000, signed: false, overwrite: true });
    const query = new URLSearchParams();
    for (const name of CARRIED) {
      const value = params[name];
      if (typeof value === 'string') query.set(name, value);
    }
    // OIDC's login_hint (or a direct link's username, sent on as login_hint) prefills the email.
    if (typeof params.login_hint === 'string') query.set('username', params.login_hint);
    // OIDC's ui_locales: the languages the app knows the person reads, best first; the screen speaks the first it can.
    if (typeof params.ui_locales === 'string') query.set('ui_locales', params.ui_locales);
    query.set('interaction', interaction.uid);
    if (accountId !== undefined) return `/auth/consent?${query}`;
    // OIDC's prompt=create asks for sign-up rather than log-in.
    return interaction.prompt.name === 'create' ? `/auth/register?${query}` : `/auth/login?${query}`;
  };
}
