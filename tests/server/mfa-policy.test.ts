import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { createSmsSender, smsCodeText } from '../../server/sms/sms-sender.ts';
import { followToClient, whatTheAppSees } from './support/client-return.ts';
import { API, capturingSms, logIn } from './support/mfa.ts';
import { TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

describe('who must use a second factor', () => {
  let server: TestApp | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const login = (app: TestApp) => ({ ...app.publicClient, email: app.user.email, password: app.user.password });

  it('with sms-mfa-disable on, neither offers SMS nor accepts it, also for a user whose factor is SMS', async () => {
    const texts = capturingSms();
    server = await startTestApp({ flags: { 'sms-mfa-disable': true }, sms: texts.sms });
    const browser = new TestBrowser(server.app);
    const { answer: first } = await logIn(browser, login(server));
    expect((first.parameters?.availableChoices as { type: string }[]).map((choice) => choice.type)).toEqual(['email', 'totp', 'passkey']);
    const refused = await browser.request('POST', `${API}/auth/2fa/initialization`, { type: 'sms' });
    expect(refused.json().error_code).toBe('mfa.method_unavailable');
    const user = await server.db.query<{ id: string }>('select id from users where email = $1', [server.user.email]);
    await server.db.query("insert into mfa_factors (id, user_id, kind, phone, confirmed_at) values (gen_random_uuid(), $1, 'sms', '+447700900123', now())", [user.rows[0]!.id]);
    const again = new TestBrowser(server.app);
    expect((await logIn(again, login(server))).answer.challenge).toBe('MFA_SETUP');
    expect(texts.sent).toHaveLength(0);
  });

  it('with mfa-disable-skip-registration on, signs in without a second factor and refuses the MFA calls', async () => {
    server = await startTestApp({ flags: { 'mfa-disable-skip-registration': true } });
    const browser = new TestBrowser(server.app);
    const { answer: first, codeVerifier } = await logIn(browser, login(server));
    expect(first.redirect_to).toMatch(/\/oidc\/auth\//);
    const callback = await followToClient(browser, String(first.redirect_to), server.publicClient.redirectUri);
    expect((await whatTheAppSees(server.app, server.publicClient, callback, codeVerifier)).idToken.amr).toEqual(['pwd']);
    const other = new TestBrowser(server.app);
    await logIn(other, login(server));
    for (const path of ['auth/mfa/selection', 'auth/2fa/initialization']) {
      expect((await other.request('POST', `${API}/${path}`, { type: 'email' })).statusCode).not.toBe(200);
    }
  });

  it('with MFA_REQUIRED=false, lets a user without a factor in on the password, but still asks one who has a factor', async () => {
    server = await startTestApp({ env: { MFA_REQUIRED: 'false' } });
    const { answer: first } = await logIn(new TestBrowser(server.app), login(server));
    expect(first.redirect_to).toMatch(/\/oidc\/auth\//);
    const user = await server.db.query<{ id: string }>('select id from users where email = $1', [server.user.email]);
    await server.db.query("insert into mfa_factors (id, user_id, kind, confirmed_at) values (gen_random_uuid(), $1, 'email', now())", [user.rows[0]!.id]);
    expect((await logIn(new TestBrowser(server.app), login(server))).answer.challenge).toBe('EMAIL_MFA');
  });

  it('reads MFA_REQUIRED as on unless set false, and wants a token with an SMS provider URL', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).mfaRequired).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test', MFA_REQUIRED: 'false' }).mfaRequired).toBe(false);
    expect(() => loadConfig({ NODE_ENV: 'test', MFA_REQUIRED: 'maybe' })).toThrow('MFA_REQUIRED must be true or false (got "maybe")');
    expect(() => loadConfig({ NODE_ENV: 'test', SMS_PROVIDER_URL: 'https://sms.example.com/send' })).toThrow('SMS_PROVIDER_TOKEN is required with SMS_PROVIDER_URL');
  });

  it('sends texts to the HTTP provider as JSON with its bearer token and sender', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const fetchImpl = (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response('{}', { status: 202 });
    }) as typeof fetch;
    const config = loadConfig({ NODE_ENV: 'test', SMS_PROVIDER_URL: 'https://sms.example.com/send', SMS_PROVIDER_TOKEN: 'tok', SMS_SENDER: 'Payments' });
    const sender = createSmsSender({ config, db: { query: async () => ({ rows: [], rowCount: 0 }) }, fetchImpl });
    await sender.send({ to: '+447700900123', text: smsCodeText('123456', 'https://sso.example.com', 10) });
    expect(calls[0]?.url).toBe('https://sms.example.com/send');
    expect(new Headers(calls[0]?.init.headers).get('authorization')).toBe('Bearer tok');
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ from: 'Payments', to: '+447700900123', text: expect.stringMatching(/\n@sso\.example\.com #123456$/) });
  });

  it('answers a provider failure with a clear error, not a crash', async () => {
    server = await startTestApp({ mailer: { send: async () => Promise.reject(new Error('smtp down')) } });
    const browser = new TestBrowser(server.app);
    await logIn(browser, login(server));
    const failed = await browser.request('POST', `${API}/auth/2fa/initialization`, { type: 'email' });
    expect(failed.statusCode).toBe(503);
    expect(failed.json().error_code).toBe('server.unavailable');
  });
});
