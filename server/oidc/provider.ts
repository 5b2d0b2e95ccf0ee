import type { Middleware } from 'koa';
import Provider, { errors, interactionPolicy, type Configuration, type Interaction, type KoaContextWithOIDC } from 'oidc-provider';
import type { JWK } from 'jose';
import type { Config } from '../config.ts';
import { LIMITS } from '../limits.ts';
import type { KeyStore } from '../crypto/key-store.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Database } from '../db/database.ts';
import { SCOPE_CLAIMS, createFindAccount } from './account.ts';
import { ACR_LEVELS } from './acr.ts';
import { acrStepUpCheck } from './acr-check.ts';
import { ID_TOKEN_SIGNING_ALGS } from './signing-algs.ts';
import { screenLanguages } from '../flows/languages.ts';
import { createOidcAdapter, sendDeferredWrites, type ClientSource } from './adapter.ts';
import { PROFILE_METADATA, REFRESH_TOKENS_METADATA } from './client-metadata.ts';
import { authorizationCodeTtl, profileFeatures } from './client-profiles.ts';
import { createLoadExistingGrant, grantRequestedAccess } from './grants.ts';
import { requestedAccess } from './requested-access.ts';
import { FIRST_PARTY_METADATA, rejectDeclined } from './consent.ts';
import { logoutSource, postLogoutSuccessSource, renderError } from './pages.ts';
import { providerCookies } from './provider-cookies.ts';
import { runProviderRequest } from './provider-request.ts';
import { installUnavailableAnswers } from './unavailable.ts';
import { installMissingCredentialAnswer } from './client-auth-answers.ts';
import { RESOURCE_SERVER_METADATA, introspectionAllowed } from './introspection-policy.ts';
import { outgoingFetch, recordSignOut } from './provider-hooks.ts';
import { SERVICE_SCOPES_METADATA, installServiceScopesInDiscovery, resourceIndicators } from './resource-indicators.ts';

/** Everything the provider needs; passed in so tests can use an in-memory database and their own interaction stub. */
export interface OidcProviderDeps {
  config: Config;
  db: Database;
  keys: KeyStore;
  box: SecretBox;
  /**
   * Called when the user must sign in: creates the sign-in transaction and returns where to send the browser
   * (the web app's `/auth/login?...&interaction=<uid>`).
   */
  onInteractionStart: (ctx: KoaContextWithOIDC, interaction: Interaction) => Promise<string>;
  /** Where client apps are read (the process's client cache); straight from the database when absent. */
  clients?: ClientSource;
  /** The signing keys to use (the active private key first); read from `keys` when absent. */
  jwks?: JWK[];
}

/** Every provider route lives under /oidc, because /auth/ is the web app's base path. Discovery stays at the root. */
export const OIDC_PREFIX = '/oidc';

const ROUTES = {
  authorization: '/auth',
  backchannel_authentication: '/backchannel',
  challenge: '/challenge',
  code_verification: '/device',
  credential: '/credential',
  device_authorization: '/device/auth',
  end_session: '/session/end',
  introspection: '/token/introspection',
  jwks: '/jwks',
  pushed_authorization_request: '/request',
  registration: '/reg',
  revocation: '/token/revocation',
  token: '/token',
  userinfo: '/me',
};

/**
 * The default prompts plus OpenID Connect's `prompt=create` ("Initiating User Registration via OpenID Connect"):
 * first, so a client asking for sign-up gets an interaction named `create` and the user lands on the register screen.
 */
function interactionPrompts() {
  const policy = interactionPolicy.base();
  policy.add(new interactionPolicy.Prompt({ name: 'create', requestable: true }), 0);
  policy.get('login')?.checks.add(acrStepUpCheck());
  return policy;
}

const prefixedRoutes = Object.fromEntries(Object.entries(ROUTES).map(([name, path]) => [name, `${OIDC_PREFIX}${path}`]));

/** Builds the OpenID Connect provider: issuer `config.publicUrl`, RS256 ID tokens (ES256, PS256 per client), PKCE for every client, state in the database. */
export async function createOidcProvider(deps: OidcProviderDeps): Promise<Provider> {
  const { config, db, keys, box } = deps;

  const configuration: Configuration = {
    adapter: createOidcAdapter({ db, box, clients: deps.clients }),
    jwks: { keys: deps.jwks ?? (await keys.signingKeySet()).jwks },
    findAccount: createFindAccount(db),
    // `amr` (how the user proved it) and `acr` (the level reached, server/oidc/acr.ts) go with `openid`: every ID token says them.
    claims: Object.fromEntries(Object.entries(SCOPE_CLAIMS).map(([scope, claims]) => [scope, scope === 'openid' ? [...claims, 'amr', 'acr'] : [...claims]])),
    acrValues: [...ACR_LEVELS],
    // ui_locales reaches the login screen (server/api/interaction-start.ts), which speaks these languages.
    discovery: { ui_locales_supported: screenLanguages() },
    scopes: [...Object.keys(SCOPE_CLAIMS), 'offline_access'],
    extraClientMetadata: {
      properties: [REFRESH_TOKENS_METADATA, PROFILE_METADATA, RESOURCE_SERVER_METADATA, SERVICE_SCOPES_METADATA, FIRST_PARTY_METADATA],
      validator(_ctx, key, value) {
        if ((key === REFRESH_TOKENS_METADATA || key === FIRST_PARTY_METADATA) && value !== undefined && typeof value !== 'boolean') throw new Error(`${key} must be a boolean`);
        if (key === SERVICE_SCOPES_METADATA && value !== undefined && !Array.isArray(value)) throw new Error(`${key} must be a list`);
      },
    },
    // A refresh token for a sign-in that asked for offline_access (with prompt=consent, as OpenID Connect requires),
    // or for any sign-in of a client whose refresh-token setting is on (npm run sso -- client add --refresh-tokens).
    issueRefreshToken: (_ctx, client, code) =>
      client.grantTypeAllowed('refresh_token') && (code.scopes.has('offline_access') || client.metadata()[REFRESH_TOKENS_METADATA] === true),
    // Every use of a refresh token returns a new one and consumes the old; presenting a consumed one revokes the whole
    // grant, every token of its family (RFC 9700 §4.14), in oidc-provider's refresh_token grant and in adapter.consume.
    rotateRefreshToken: true,
    // Our client apps are first-party and read the user from the ID token, so it carries the claims the granted
    // scopes release (as the userinfo endpoint does) instead of only `sub`.
    conformIdTokenClaims: false,
    clientDefaults: {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'RS256', // OpenID Connect's default (Discovery 1.0 §3), as every RP library expects
    },
    // The key store keeps an RSA key (RS256, PS256) and a P-256 key (ES256); a client may ask for any of the three.
    enabledJWA: { idTokenSigningAlgValues: [...ID_TOKEN_SIGNING_ALGS] },
    responseTypes: ['code'],
    // Clients always send redirect_uri (spec, section 1); never guess it for them.
    allowOmittingSingleRegisteredRedirectUri: false,
    // Every client, confidential ones too, proves with PKCE that it redeems its own code (RFC 9700 §2.1.1).
    pkce: { required: () => true },
    // Same rule as oidc-provider's default, stated here: browsers may call userinfo (and public clients the token
    // endpoint) only from the origin of one of the client's registered redirect URIs.
    clientBasedCORS: (ctx, origin, client) =>
      origin !== 'null' &&
      (ctx.oidc.route === 'userinfo' || client.clientAuthMethod === 'none') &&
      (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin),
    routes: prefixedRoutes,
    ttl: {
      AuthorizationCode: authorizationCodeTtl,
      AccessToken: LIMITS.ACCESS_TOKEN_TTL,
      ClientCredentials: LIMITS.SERVICE_TOKEN_TTL,
      IdToken: LIMITS.ID_TOKEN_TTL,
      RefreshToken: LIMITS.REFRESH_TOKEN_TTL,
      Interaction: LIMITS.TRANSACTION_TTL,
      Session: LIMITS.SESSION_TTL,
      // A grant lives as long as the session that made it (see loadExistingGrant); one with offline access as long as
      // its refresh tokens may, which bounds the whole token family however often it is rotated.
      Grant: (_ctx, grant) => (grant.getOIDCScope().split(' ').includes('offline_access') ? LIMITS.REFRESH_TOKEN_TTL : LIMITS.SESSION_TTL),
    },
    cookies: providerCookies(config, box.derive('oidc-cookies')),
    interactions: { policy: interactionPrompts(), url: (ctx, interaction) => deps.onInteractionStart(ctx, interaction) },
    // An invitation link's token rides along the authorization request to the interaction it starts.
    extraParams: ['invitation'],
    loadExistingGrant: createLoadExistingGrant(db),
    renderError,
    fetch: outgoingFetch(config),
    features: {
      ...profileFeatures(box),
      devInteractions: { enabled: false },
      userinfo: { enabled: true },
      // Service apps (sso client add --service-scope), with tokens for one resource server each (resource-indicators.ts).
      clientCredentials: { enabled: true },
      resourceIndicators: resourceIndicators(db),
      // The `claims` request parameter, so a client can ask for an essential `acr` (server/oidc/acr.ts).
      claimsParameter: { enabled: true },
      revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
      // RFC 7662 §2.2: only the token's own client, or a resource server in its audience, learns about it.
      introspection: { enabled: true, allowedPolicy: introspectionAllowed },
      rpInitiatedLogout: { enabled: true, logoutSource, postLogoutSuccessSource },
      // OpenID Connect Back-Channel Logout 1.0: apps that registered a backchannel_logout_uri are told when a session
      // ends, here (RP-initiated logout) and wherever we end sessions ourselves (server/auth/sessions.ts).
      backchannelLogout: { enabled: true },
    },
  };

  const provider = new Provider(config.publicUrl, configuration);
  installUnavailableAnswers(provider);
  installMissingCredentialAnswer(provider);
  // Inside the unavailable answers, so a database out of reach when the writes go out is answered with a 503 too.
  provider.use(providerRequestScope(db, provider));
  installServiceScopesInDiscovery(provider, db);
  provider.on('end_session.success', (ctx: KoaContextWithOIDC) => {
    recordSignOut(db, ctx).catch((error: unknown) => provider.emit('server_error', ctx, error));
  });
  return provider;
}

/**
 * Gives each provider request its read-ahead rows (see requestRows) and holds its writes back, to send them in one
 * statement once its answer is ready, before the answer leaves (see requestWrites). When they cannot be written, the
 * answer (a redirect carrying a code, a token response, a session cookie) is dropped for the error's: it would name
 * state that was never stored.
 */
function providerRequestScope(db: Database, provider: Provider): Middleware {
  return (ctx, next) =>
    runProviderRequest(async () => {
      let failure: { error: unknown } | undefined;
      try {
        await next();
      } catch (error) {
        failure = { error };
      }
      try {
        await sendDeferredWrites(db);
      } catch (error) {
        if (failure) throw failure.error;
        ctx.remove('location');
        ctx.remove('set-cookie');
        if (error instanceof errors.InvalidGrant) {
          // The code or refresh token was spent by a parallel request first (adapter.ts): the token endpoint's refusal.
          provider.emit('grant.error', ctx, error);
          ctx.status = error.statusCode;
          ctx.body = { error: error.message, error_description: error.error_description };
          return;
        }
        provider.emit('server_error', ctx, error);
        ctx.body = null;
        throw error;
      }
      if (failure) throw failure.error;
    });
}

/** Thrown when a sign-in transaction points at an interaction that expired or never existed. */
export class InteractionNotFoundError extends Error {
  override readonly name = 'InteractionNotFoundError';
  readonly code = 'interaction.not_found';
  readonly uid: string;
  constructor(uid: string) {
    super(`interaction ${uid} was not found or has expired`);
    this.uid = uid;
  }
}

/** What the sign-in UI needs to know about an authorization request in progress. */
export interface InteractionSummary {
  uid: string;
  clientId: string;
  /** The authorization parameters as the client sent them (redirect_uri, state, scope, nonce, ...). */
  params: Record<string, unknown>;
  /** `login` or `consent`: why oidc-provider stopped to ask. */
  prompt: string;
  /** Epoch seconds. */
  expiresAt: number;
}

/** How the user proved who they are, recorded in the session and released as `amr`/`acr`. */
export interface LoginDetails {
  amr?: string[];
  acr?: string;
  /** False makes the provider's session cookie end with the browser session. */
  remember?: boolean;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Looks up an interaction by uid: its client and authorization parameters, or undefined if missing or expired. */
export async function findInteraction(provider: Provider, uid: string): Promise<InteractionSummary | undefined> {
  const interaction = await provider.Interaction.find(uid);
  if (!interaction) return undefined;
  const clientId = interaction.params.client_id;
  if (typeof clientId !== 'string') return undefined;
  return { uid: interaction.uid, clientId, params: interaction.params, prompt: interaction.prompt.name, expiresAt: interaction.exp };
}

/**
 * Records that `accountId` signed in for interaction `uid` and returns the URL the browser must GET next (the
 * provider's resume endpoint, which answers with the redirect to the client carrying `code` and `state`), and the
 * grant the sign-in's tokens will be issued under: what the app asked but the scopes the person `declined`.
 */
export async function completeInteraction(
  provider: Provider,
  uid: string,
  accountId: string,
  login: LoginDetails = {},
  declined: readonly string[] = [],
): Promise<{ returnTo: string; grantId: string }> {
  const interaction = await provider.Interaction.find(uid);
  const remaining = interaction ? interaction.exp - nowSeconds() : 0;
  if (!interaction || remaining < 1) throw new InteractionNotFoundError(uid);
  const clientId = interaction.params.client_id;
  if (typeof clientId !== 'string') throw new InteractionNotFoundError(uid);

  // Consent is answered here too, so a request that asked for prompt=consent does not loop back to the login page.
  const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
  const grant =
    existing && existing.accountId === accountId && existing.clientId === clientId
      ? existing
      : new provider.Grant({ accountId, clientId });
  const asked = requestedAccess(interaction.params);
  grantRequestedAccess(grant, { ...asked, scopes: asked.scopes.filter((scope) => !declined.includes(scope)) });
  rejectDeclined(grant, declined);
  const grantId = await grant.save();

  // `create` settles a prompt=create request too: the user has just signed up (or chose to log in instead).
  interaction.result = { login: { accountId, ...login }, consent: { grantId }, create: {} };
  await interaction.save(remaining);
  return { returnTo: interaction.returnTo, grantId };
}
