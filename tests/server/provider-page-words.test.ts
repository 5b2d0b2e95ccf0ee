/**
 * The pages oidc-provider renders itself (its error page, the sign-out question, "signed out") are the product's: a
 * sentence a person understands in their language, a way on, and never a developer's words (an error code, a parameter
 * name, the provider's description). Generated over every error class oidc-provider has, then through real requests.
 */
import { errors, type ErrorOut, type KoaContextWithOIDC } from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_PAGE } from '../../contract/product.ts';
import { logoutSource, renderError } from '../../server/oidc/pages.ts';
import { signIn, TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

/** Words only a developer reads: OAuth error codes and parameter names, the protocol's names. */
const DEVELOPER_WORDS = /\b(invalid_\w+|unsupported_\w+|unauthorized_client|access_denied|\w+_required|response_type|redirect_uri|client_id|code_challenge|parameter|PKCE|S256|OIDC|OAuth)\b/i;

/** Every error class oidc-provider exports, each made as the provider makes it, with a description of its own. */
const ERROR_CLASSES = Object.entries(errors).filter(([, value]) => typeof value === 'function') as Array<[string, new (...args: unknown[]) => Error & { error?: string; error_description?: string }]>;

/** A context as the authorization endpoint hands renderError one, with `headers` of the person's browser. */
function fakeContext(headers: Record<string, string> = {}, route = 'authorization') {
  const answer: { headers: Record<string, string>; type?: string; body?: string } = { headers: {} };
  const ctx = {
    oidc: { route, params: {} },
    cookies: { get: (name: string) => (name === 'sso_lang' ? headers.cookieLanguage : undefined) },
    get: (name: string) => headers[name.toLowerCase()] ?? '',
    set: (values: Record<string, string>) => Object.assign(answer.headers, values),
    set type(value: string) {
      answer.type = value;
    },
    set body(value: string) {
      answer.body = value;
    },
  };
  return { ctx: ctx as unknown as KoaContextWithOIDC, answer };
}

function makeError(Klass: (typeof ERROR_CLASSES)[number][1]): { error: string; error_description: string } {
  const instance = new Klass('a precise description for developers', 'a precise description for developers');
  return { error: String(instance.error ?? instance.message), error_description: String(instance.error_description ?? 'a precise description for developers') };
}

describe('the provider error page, for every error oidc-provider can render', () => {
  it.each(ERROR_CLASSES.map(([name, Klass]) => [name, Klass] as const))('%s: a plain sentence with a way on, no developer words', (_name, Klass) => {
    const out = makeError(Klass);
    const { ctx, answer } = fakeContext();
    renderError(ctx, out as ErrorOut);
    const text = String(answer.body);
    expect(text).toContain('This sign-in could not start');
    expect(text).toContain(`href="${ACCOUNT_PAGE.path}"`);
    expect(text).not.toContain(out.error);
    expect(text).not.toContain('a precise description for developers');
    expect(text.replace(/<[^>]+>/g, ' ')).not.toMatch(DEVELOPER_WORDS);
  });

  it('speaks the language of the web app\'s cookie, else the browser\'s', () => {
    const fromCookie = fakeContext({ cookieLanguage: 'de', 'accept-language': 'en' });
    renderError(fromCookie.ctx, { error: 'invalid_request' } as ErrorOut);
    expect(fromCookie.answer.body).toContain('<html lang="de">');
    expect(fromCookie.answer.body).toContain('Diese Anmeldung konnte nicht beginnen');
    const fromBrowser = fakeContext({ 'accept-language': 'fr-CH, de-AT;q=0.8, en;q=0.5' });
    renderError(fromBrowser.ctx, { error: 'invalid_request' } as ErrorOut);
    expect(fromBrowser.answer.body).toContain('Zu Ihrer Kontoseite');
  });
});

describe('the provider pages through real requests', () => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp({ env: { MFA_REQUIRED: 'false' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each([
    ['no parameters at all', ''],
    ['an unknown app', 'client_id=nobody&response_type=code&scope=openid'],
    ['only an app named (the provider says "missing required parameter \'response_type\'")', 'client_id=sso-account'],
    ['an unregistered return address', 'client_id=sso-account&redirect_uri=https%3A%2F%2Fevil.example%2Fcb&response_type=code&scope=openid'],
    ['no return address', 'client_id=sso-account&response_type=code&scope=openid'],
  ] as const)('/oidc/auth with %s answers a plain page with a way on', async (_case, query) => {
    const response = await server.app.inject({ method: 'GET', url: `/oidc/auth?${query}`, headers: { 'accept-language': 'de-DE,de;q=0.9' } });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('<html lang="de">');
    expect(response.body).toContain('Diese Anmeldung konnte nicht beginnen');
    expect(response.body).toContain(`href="${ACCOUNT_PAGE.path}"`);
    expect(response.body.replace(/<[^>]+>/g, ' ')).not.toMatch(DEVELOPER_WORDS);
  });

  it('asks before signing out in the person\'s language, naming the app, with "only this app" for another app than the account page', async () => {
    const browser = new TestBrowser(server.app);
    await signIn(browser, { ...server.confidentialClient, email: server.user.email, password: server.user.password });
    const cookie = `${browser.jar.header('/oidc/session/end')}; sso_lang=de`;
    const page = await server.app.inject({ method: 'GET', url: `/oidc/session/end?client_id=${server.confidentialClient.clientId}`, headers: { cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<html lang="de">');
    expect(page.body).toContain('Abmelden?');
    expect(page.body).toContain('Ja, abmelden');
    expect(page.body).toContain('Nur von Dashboard abmelden');
  });

  it('offers no "only this app" on the account page\'s own sign-out', () => {
    const { ctx, answer } = fakeContext({ 'accept-language': 'en' }, 'end_session');
    Object.assign(ctx.oidc, { client: { clientId: ACCOUNT_PAGE.clientId, clientName: 'My Account' } });
    logoutSource(ctx, '<form id="op.logoutForm" method="post" action="/oidc/session/end/confirm"></form>');
    expect(answer.body).toContain('Yes, sign me out');
    expect(answer.body).not.toMatch(/only/i);
  });
});
