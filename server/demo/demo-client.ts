import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as oidc from 'openid-client';
import type { Config } from '../config.ts';
import { LIMITS } from '../limits.ts';
import { ApiError } from '../errors.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import { PAGE_HEADERS } from '../oidc/html-page.ts';
import type { Queryable } from '../db/database.ts';
import { isDemoLoggedOut, recordDemoLogout } from '../store/demo-logouts.ts';
import { readCookie, serializeCookie } from './cookies.ts';
import { DEMO_BACKCHANNEL_LOGOUT_PATH, DEMO_POST_LOGOUT_PATH } from './demo-paths.ts';
import { InvalidLogoutTokenError, verifyLogoutToken } from './logout-token.ts';
import { demoErrorPage, demoHomePage, tokenPreview, type DemoSession } from './demo-pages.ts';

/** One client app the demo plays; its redirect URI is `publicUrl + callbackPath`. */
export interface DemoClient {
  clientId: string;
  /** Shown on the sign-in button; defaults to the client id. */
  name?: string;
  /** Present for a confidential client (client_secret_basic); absent for a public one (PKCE only). */
  secret?: string | undefined;
  /** An absolute path under /demo/, e.g. `/demo/auth/callback`. */
  callbackPath: string;
}

/** What the demo needs; `customFetch` lets tests route its back-channel calls through `app.inject`. */
export interface DemoClientDeps {
  config: Pick<Config, 'publicUrl'>;
  box: SecretBox;
  /** Where the sessions a back-channel logout ended are kept, so every server process honours it. */
  db: Queryable;
  clients: readonly DemoClient[];
  customFetch?: oidc.CustomFetch;
}

/** The sign-in in progress: what the callback must find to accept the response. */
interface PendingSignIn {
  clientId: string;
  state: string;
  nonce: string;
  verifier: string;
}

const FLOW_COOKIE = 'demo_flow';
const SESSION_COOKIE = 'demo_session';
const FLOW_CONTEXT = 'demo-state';
const SESSION_CONTEXT = 'demo-session';
const SCOPE = 'openid email profile company';
/** A logout token is one JWT in a form body. */
const LOGOUT_BODY_LIMIT = 16 * 1024;
/** A refused logout token gets a 400 (Back-Channel Logout 1.0, 2.8) in the product's error shape. */
const INVALID_LOGOUT_TOKEN = 'The logout token is missing or not valid.';

/** How a back-channel logout names a demo session: the client app and the provider's session id for it. */
const logoutSubject = (clientId: string, sid: string) => `${clientId}:${sid}`;

/** The demo relying party at /demo/: a real OpenID Connect client of this server, written with openid-client. */
export function demoClientRoutes(deps: DemoClientDeps) {
  const { config, box, clients } = deps;
  const issuer = new URL(config.publicUrl);
  const secure = issuer.protocol === 'https:';
  const redirectUri = (client: DemoClient) => new URL(client.callbackPath, issuer).href;
  const discovered = new Map<string, Promise<oidc.Configuration>>();

  // Discovery happens on first use, not at start, so the demo never delays or breaks the server's boot.
  function configurationFor(client: DemoClient): Promise<oidc.Configuration> {
    let pending = discovered.get(client.clientId);
    if (!pending) {
      const auth = client.secret === undefined ? oidc.None() : oidc.ClientSecretBasic(client.secret);
      pending = oidc.discovery(issuer, client.clientId, { id_token_signed_response_alg: 'ES256' }, auth, {
        execute: issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
        ...(deps.customFetch ? { [oidc.customFetch]: deps.customFetch } : {}),
      });
      // A failed discovery is retried on the next sign-in rather than cached.
      pending.catch(() => discovered.delete(client.clientId));
      discovered.set(client.clientId, pending);
    }
    return pending;
  }

  function readSealed<T>(request: FastifyRequest, name: string, context: string): T | undefined {
    const sealed = readCookie(request.headers.cookie, name);
    if (sealed === undefined) return undefined;
    try {
      return JSON.parse(box.open(sealed, context)) as T;
    } catch {
      return undefined; // Tampered, or sealed under another master key: treat as absent.
    }
  }

  const cookie = (name: string, value: string, maxAge: number) => serializeCookie(name, value, { path: '/demo', maxAge, secure });

  function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
    return reply.code(status).headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(html);
  }

  async function finishSignIn(request: FastifyRequest, client: DemoClient): Promise<DemoSession> {
    const pending = readSealed<PendingSignIn>(request, FLOW_COOKIE, FLOW_CONTEXT);
    if (!pending || pending.clientId !== client.clientId) {
      throw Object.assign(new Error('This sign-in was not started here or has expired. Please start again.'), { error: 'session_expired' });
    }
    const configuration = await configurationFor(client);
    const tokens = await oidc.authorizationCodeGrant(configuration, new URL(request.url, issuer), {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw Object.assign(new Error('No ID token was returned.'), { error: 'invalid_response' });
    const userinfo = await oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub);
    return {
      clientId: client.clientId,
      email: String(userinfo.email ?? claims.sub),
      claims: { ...claims },
      refreshToken: tokens.refresh_token,
      accessTokenPreview: tokenPreview(tokens.access_token),
      idToken: tokens.id_token,
    };
  }

  /** The signed-in session, unless the provider has since told the demo (back-channel logout) that it ended. */
  async function liveSession(request: FastifyRequest): Promise<DemoSession | undefined> {
    const session = readSealed<DemoSession>(request, SESSION_COOKIE, SESSION_CONTEXT);
    const sid = session?.claims.sid;
    if (session && typeof sid === 'string' && (await isDemoLoggedOut(deps.db, logoutSubject(session.clientId, sid)))) return undefined;
    return session;
  }

  /** Trades the session's refresh token for new tokens; the provider rotates the refresh token on every use. */
  async function refreshSession(session: DemoSession): Promise<DemoSession> {
    const client = clients.find((candidate) => candidate.clientId === session.clientId);
    if (!client || !session.refreshToken) throw Object.assign(new Error('This session cannot be refreshed. Please sign in again.'), { error: 'session_expired' });
    const tokens = await oidc.refreshTokenGrant(await configurationFor(client), session.refreshToken);
    const claims = tokens.claims();
    return {
      ...session,
      claims: claims ? { ...claims } : session.claims,
      refreshToken: tokens.refresh_token ?? session.refreshToken,
      idToken: tokens.id_token ?? session.idToken,
      accessTokenPreview: tokenPreview(tokens.access_token),
      refreshes: (session.refreshes ?? 0) + 1,
      refreshedAt: new Date().toISOString(),
    };
  }

  const sessionCookie = (session: DemoSession) => cookie(SESSION_COOKIE, box.seal(JSON.stringify(session), SESSION_CONTEXT), LIMITS.SESSION_TTL);

  return async (app: FastifyInstance) => {
    app.get('/demo', (_request, reply) => reply.redirect('/demo/'));

    app.get('/demo/', async (request, reply) => {
      const session = await liveSession(request);
      const buttons = clients.map((client) => ({ clientId: client.clientId, label: client.name ?? client.clientId }));
      // A session the provider ended is forgotten here too.
      if (!session && readCookie(request.headers.cookie, SESSION_COOKIE) !== undefined) reply.header('set-cookie', cookie(SESSION_COOKIE, '', 0));
      return sendPage(reply, 200, demoHomePage(buttons, session));
    });

    app.get<{ Querystring: { client?: string; invitation?: string; prompt?: string } }>('/demo/login', async (request, reply) => {
      const client = clients.find((candidate) => candidate.clientId === request.query.client);
      if (!client) return sendPage(reply, 400, demoErrorPage('unknown_client', 'The demo does not know this client app.'));
      const pending: PendingSignIn = {
        clientId: client.clientId,
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        verifier: oidc.randomPKCECodeVerifier(),
      };
      // Client apps link straight to the web app's login screen (spec, section 1), carrying the OIDC values along.
      // prompt=create starts on the register screen, which sends it on to the provider.
      const login = new URL(request.query.prompt === 'create' ? '/auth/register' : '/auth/login', issuer);
      login.search = new URLSearchParams({
        client_id: client.clientId,
        redirect_uri: redirectUri(client),
        response_type: 'code',
        scope: SCOPE,
        state: pending.state,
        nonce: pending.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
        code_challenge_method: 'S256',
        // An invitation link comes through here (the client's initiate_login_uri) so the sign-in it starts is ours.
        ...(typeof request.query.invitation === 'string' ? { invitation: request.query.invitation } : {}),
        ...(request.query.prompt === 'create' ? { prompt: 'create' } : {}),
      }).toString();
      reply.header('set-cookie', cookie(FLOW_COOKIE, box.seal(JSON.stringify(pending), FLOW_CONTEXT), LIMITS.TRANSACTION_TTL));
      return reply.header('cache-control', 'no-store').redirect(login.href, 303);
    });

    for (const client of clients) {
      app.get(client.callbackPath, async (request, reply) => {
        let session: DemoSession;
        try {
          session = await finishSignIn(request, client);
        } catch (error) {
          const { code, description } = describeFailure(error);
          if (code === 'server_error') request.log.error({ err: error }, 'demo client sign-in failed');
          return sendPage(reply, 400, demoErrorPage(code, description));
        }
        reply.header('set-cookie', [
          cookie(FLOW_COOKIE, '', 0),
          sessionCookie(session),
        ]);
        return reply.redirect('/demo/', 303);
      });
    }

    // A form POST (the session cookie is SameSite=Lax, so another site cannot make the browser send it here).
    app.post('/demo/refresh', async (request, reply) => {
      const session = await liveSession(request);
      if (!session) return reply.redirect('/demo/', 303);
      try {
        reply.header('set-cookie', sessionCookie(await refreshSession(session)));
      } catch (error) {
        const { code, description } = describeFailure(error);
        if (code === 'server_error') request.log.error({ err: error }, 'demo client refresh failed');
        reply.header('set-cookie', cookie(SESSION_COOKIE, '', 0));
        return sendPage(reply, 400, demoErrorPage(code, description));
      }
      return reply.redirect('/demo/', 303);
    });

    // Signing out ends the demo's own session and then the provider's (OpenID Connect RP-Initiated Logout), whose
    // confirmation screen sends the browser back to the demo; the next "Sign in" asks for the password again.
    app.get('/demo/logout', async (request, reply) => {
      const session = readSealed<DemoSession>(request, SESSION_COOKIE, SESSION_CONTEXT);
      reply.header('set-cookie', cookie(SESSION_COOKIE, '', 0)).header('cache-control', 'no-store');
      const client = session && clients.find((candidate) => candidate.clientId === session.clientId);
      if (!session?.idToken || !client) return reply.redirect('/demo/', 303);
      try {
        const endSession = oidc.buildEndSessionUrl(await configurationFor(client), {
          id_token_hint: session.idToken,
          post_logout_redirect_uri: new URL(DEMO_POST_LOGOUT_PATH, issuer).href,
        });
        return reply.redirect(endSession.href, 303);
      } catch (error) {
        request.log.error({ err: error }, 'demo client could not reach the provider to sign out');
        return sendPage(reply, 502, demoErrorPage('server_error', 'The sign-in service could not be reached to sign you out everywhere. Please try again.'));
      }
    });

    // Forms: the refresh button's (no fields) and the provider's back-channel logout POST, a signed logout token
    // sent when a session of ours ends (OpenID Connect Back-Channel Logout).
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: LOGOUT_BODY_LIMIT }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    app.post<{ Body: Record<string, string> }>(DEMO_BACKCHANNEL_LOGOUT_PATH, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const token = request.body?.logout_token;
      if (typeof token !== 'string' || clients.length === 0) throw new ApiError('request.invalid', INVALID_LOGOUT_TOKEN);
      try {
        const metadata = (await configurationFor(clients[0]!)).serverMetadata();
        const notice = await verifyLogoutToken(token, {
          issuer: metadata.issuer,
          clientIds: clients.map((client) => client.clientId),
          jwksUri: String(metadata.jwks_uri),
          fetch: deps.customFetch ?? fetch,
        });
        const now = Date.now();
        await recordDemoLogout(deps.db, logoutSubject(notice.clientId, notice.sid), new Date(now), new Date(now + LIMITS.SESSION_TTL * 1000));
        return reply.code(200).send({});
      } catch (error) {
        if (!(error instanceof InvalidLogoutTokenError)) throw error;
        request.log.warn({ reason: error.message }, 'demo client refused a logout token');
        throw new ApiError('request.invalid', INVALID_LOGOUT_TOKEN);
      }
    });
  };
}

/** Turns whatever failed into an OAuth-style code and a sentence for the error page. */
function describeFailure(error: unknown): { code: string; description: string | undefined } {
  if (error instanceof oidc.AuthorizationResponseError || error instanceof oidc.ResponseBodyError) {
    return { code: error.error, description: error.error_description };
  }
  if (error instanceof oidc.ClientError) return { code: 'invalid_response', description: error.message };
  if (error instanceof Error && 'error' in error && typeof error.error === 'string') return { code: error.error, description: error.message };
  return { code: 'server_error', description: 'The sign-in service could not be reached. Please try again.' };
}
