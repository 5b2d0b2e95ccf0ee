/**
 * Authentication context classes: every ID token says the level its sign-in reached (`acr`), discovery lists the
 * levels, and a client asking for a second-factor level (`acr_values` or an essential `acr` claim) gets a second
 * factor asked for, even of a person with a live password-only session.
 */
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACR, ACR_LEVELS } from '../../server/oidc/acr.ts';
import { TestBrowser, exchangeCode, openLoginScreen, signIn, submitLogin } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

describe('acr levels', () => {
  let server: TestApp;
  beforeAll(async () => {
    // Password-only sign-ins are allowed here, so the second factor is asked for only when a client wants the level.
    server = await startTestApp({ env: { MFA_REQUIRED: 'false' } });
  });
  afterAll(async () => {
    await server.close();
  });

  const person = () => ({ ...server.publicClient, email: server.user.email, password: server.user.password });

  it('lists the levels in discovery as acr_values_supported', async () => {
    const discovery = (await server.app.inject({ method: 'GET', url: '/.well-known/openid-configuration' })).json<{ acr_values_supported: string[] }>();
    expect(discovery.acr_values_supported).toEqual([...ACR_LEVELS]);
  });

  it('says in the ID token that a password sign-in reached the password level', async () => {
    const browser = new TestBrowser(server.app);
    const { callback, codeVerifier } = await signIn(browser, person());
    const tokens = (await exchangeCode(server.app, server.publicClient, callback, codeVerifier)).json<{ id_token: string }>();
    expect(decodeJwt(tokens.id_token)).toMatchObject({ acr: ACR.password, amr: ['pwd'] });
  });

  it.each([
    ['acr_values', { acr_values: ACR.mfa }],
    ['an essential acr claim', { claims: JSON.stringify({ id_token: { acr: { essential: true, values: [ACR.mfa, ACR.phishingResistant] } } }) }],
  ])('steps a live password session up to a second factor when the client asks by %s', async (_how, extraParams) => {
    const browser = new TestBrowser(server.app);
    await signIn(browser, person());
    // The same browser, its session live: a request for the second-factor level starts a sign-in that asks for one.
    const { interaction } = await openLoginScreen(browser, { ...server.publicClient, extraParams });
    expect(interaction).toBeTruthy();
    const login = await submitLogin(browser, server.user.email, server.user.password);
    expect(login.json()).toMatchObject({ challenge: 'MFA_SETUP' });
  });

  it('does not step up a session that already reached the level asked for', async () => {
    const browser = new TestBrowser(server.app);
    await signIn(browser, person());
    const { codeVerifier } = await import('openid-client').then((oidc) => ({ codeVerifier: oidc.randomPKCECodeVerifier() }));
    const again = await openLoginScreen(browser, { ...server.publicClient, codeVerifier, extraParams: { acr_values: ACR.password } }).catch((error: Error) => error);
    // No interaction: the provider answered the client at once, on the live session.
    expect(again).toBeInstanceOf(Error);
    expect(String((again as Error).message)).toMatch(/did not start an interaction: 303/);
  });
});
