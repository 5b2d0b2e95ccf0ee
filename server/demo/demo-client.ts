import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as oidc from 'openid-client';
import type { Config } from '../config.ts';
import { LIMITS } from '../limits.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import { PAGE_HEADERS } from '../oidc/html-page.ts';
import type { Queryable } from '../db/database.ts';
import { isDemoLoggedOut } from '../store/demo-logouts.ts';
import { readCookie, serializeCookie } from './cookies.ts';
import { dpopHandles, type DemoFapi2Keys } from './demo-fapi2-keys.ts';
import { demoDiscovery } from './demo-discovery.ts';
import { DEMO_BACKCHANNEL_LOGOUT_PATH, DEMO_POST_LOGOUT_PATH } from './demo-paths.ts';
import { backchannelLogout, logoutSubject } from './demo-backchannel.ts';
import { demoErrorPage, demoHomePage, tokenPreview, type DemoSession } from './demo-pages.ts';
import { describeFailure } from './demo-failures.ts';
import { fromOurIssuer, RESTART_MARK, type LoginQuery } from './demo-initiate-login.ts';

/** One client app the demo plays; its redirect URI is `demo.url + callbackPath`. */
export interface DemoClient {
  clientId: string;
  /** Shown on the sign-in button; defaults to the client id. */
  name?: string;
  /** Present for a confidential client (client_secret_basic); absent for a public one (PKCE only). */
  secret?: string | undefined;
  /** An absolute path under /demo/, e.g. `/demo/auth/callback`. */
  callbackPath: string;
  /** Present for the fapi2 client: its private_key_jwt signing key and its DPoP key pair. */
  fapi2?: DemoFapi2Keys;
}

/** What the demo needs; `customFetch` lets tests route its back-channel calls through `app.inject`. */
export interface DemoClientDeps {
  /** The provider (`publicUrl`, the issuer) and the demo's own origin (`demo.url`). */
  config: Pick<Config, 'publicUrl' | 'demo'>;
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

/** The demo relying party at /demo/: a real OpenID Connect client of this server, written with openid-client. */
export function demoClientRoutes(deps: DemoClientDeps) {
  const { config, box, clients } = deps;
  const issuer = new URL(config.publicUrl);
  const origin = new URL(config.demo.url);
  const secure = origin.protocol === 'https:';
  const redirectUri = (client: DemoClient) => new URL(client.callbackPath, origin).href;
  const dpopOptions = dpopHandles();

  const configurationFor = demoDiscovery(issuer, deps.customFetch);

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
      throw Object.assign(new Error('This sign-in could not be finished: it took too long, or this browser does not keep the app\'s cookies. Please sign in again.'), { error: 'session_expired' });
    }
    const configuration = await configurationFor(client);
    const dpop = dpopOptions(client, configuration);
    const tokens = await oidc.authorizationCodeGrant(
      configuration,
      new URL(request.url, origin),
      { pkceCodeVerifier: pending.verifier, expectedState: pending.state, expectedNonce: pending.nonce, idTokenExpected: true },
      undefined,
      dpop,
    );
    const claims = tokens.claims();
    if (!claims) throw Object.assign(new Error('No ID token was returned.'), { error: 'invalid_response' });
    const userinfo = await oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub, dpop);
    return {
      tokenType: tokens.token_type,
      ...(client.fapi2 ? { userinfo: { ...userinfo } } : {}),
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
    const configuration = await configurationFor(client);
    const tokens = await oidc.refreshTokenGrant(configuration, session.refreshToken, undefined, dpopOptions(client, configuration));
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

  /** Pushes the fapi2 client's authorization request (PAR + private_key_jwt + DPoP); answers where the browser goes. */
  async function pushedSignIn(client: DemoClient, pending: PendingSignIn): Promise<URL> {
    const configuration = await configurationFor(client);
    const parameters = {
      redirect_uri: redirectUri(client),
      scope: SCOPE,
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
    };
    return oidc.buildAuthorizationUrlWithPAR(configuration, parameters, dpopOptions(client, configuration));
  }

  /** A callback with a code but no sign-in of the demo's own, and not the demo's own second try already. */
  function startedElsewhere(request: FastifyRequest, client: DemoClient): boolean {
    const query = request.query as Record<string, unknown>;
    if (typeof query.code !== 'string' || typeof query.state !== 'string' || query.state.startsWith(RESTART_MARK)) return false;
    const pending = readSealed<PendingSignIn>(request, FLOW_COOKIE, FLOW_CONTEXT);
    return !pending || pending.clientId !== client.clientId;
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

    // The clients' initiate_login_uri (OpenID Connect third-party-initiated login): the provider, an invitation or a
    // plain link sends the browser here with `iss`, maybe `login_hint` and `prompt=create`, and the demo starts its own
    // sign-in with its own state and PKCE.
    app.get<{ Querystring: LoginQuery }>('/demo/login', async (request, reply) => {
      const client = clients.find((candidate) => candidate.clientId === request.query.client);
      if (!client) return sendPage(reply, 400, demoErrorPage(undefined, 'The demo does not know this app. Go back to the demo and choose an app there.'));
      if (!fromOurIssuer(request.query.iss, issuer)) {
        return sendPage(reply, 400, demoErrorPage(client.clientId, 'This sign-in link came from a sign-in service this app does not use. Start the sign-in here instead.'));
      }
      const pending: PendingSignIn = {
        clientId: client.clientId,
        state: request.query.again === '1' ? `${RESTART_MARK}${oidc.randomState()}` : oidc.randomState(),
        nonce: oidc.randomNonce(),
        verifier: oidc.randomPKCECodeVerifier(),
      };
      reply.header('set-cookie', cookie(FLOW_COOKIE, box.seal(JSON.stringify(pending), FLOW_CONTEXT), LIMITS.TRANSACTION_TTL)).header('cache-control', 'no-store');
      if (client.fapi2) {
        // The fapi2 profile takes pushed requests only: the parameters go to the provider first (PAR, with the DPoP
        // key bound to the code), and the browser carries only the request_uri.
        try {
          return reply.redirect((await pushedSignIn(client, pending)).href, 303);
        } catch (error) {
          const { code, description } = describeFailure(error);
          if (code === 'server_error') request.log.error({ err: error }, 'demo client could not push its authorization request');
          return sendPage(reply, 400, demoErrorPage(code, description));
        }
      }
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
        ...(typeof request.query.login_hint === 'string' ? { username: request.query.login_hint } : {}),
        ...(request.query.prompt === 'create' ? { prompt: 'create' } : {}),
      }).toString();
      return reply.redirect(login.href, 303);
    });

    for (const client of clients) {
      app.get(client.callbackPath, async (request, reply) => {
        // A sign-in the demo did not start (a sign-up from a link straight to the provider): the person is signed in at the
        // provider now, so a sign-in of the demo's own finishes at once. Only once: its state is marked.
        if (startedElsewhere(request, client)) return reply.header('cache-control', 'no-store').redirect(`/demo/login?client=${encodeURIComponent(client.clientId)}&again=1`, 303);
        let session: DemoSession;
        try {
          session = await finishSignIn(request, client);
        } catch (error) {
          const { code, description } = describeFailure(error);
          if (code === 'server_error') request.log.error({ err: error, code }, 'demo client sign-in failed');
          else request.log.info({ code }, 'demo client sign-in refused');
          return sendPage(reply, 400, demoErrorPage(client.clientId, description));
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
        return sendPage(reply, 400, demoErrorPage(session.clientId, description));
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
          post_logout_redirect_uri: new URL(DEMO_POST_LOGOUT_PATH, origin).href,
        });
        return reply.redirect(endSession.href, 303);
      } catch (error) {
        request.log.error({ err: error }, 'demo client could not reach the provider to sign out');
        return sendPage(reply, 502, demoErrorPage(undefined, 'The sign-in service could not be reached to sign you out everywhere. Please try again.'));
      }
    });

    // Forms: the refresh button's (no fields) and the provider's back-channel logout POST, a signed logout token
    // sent when a session of ours ends (OpenID Connect Back-Channel Logout).
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: LOGOUT_BODY_LIMIT }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    app.post<{ Body: Record<string, string> }>(DEMO_BACKCHANNEL_LOGOUT_PATH, backchannelLogout({ db: deps.db, clients, customFetch: deps.customFetch, configurationFor }));
  };
}
