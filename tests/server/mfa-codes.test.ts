import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../server/limits.ts';
import { followToClient, whatTheAppSees } from './support/client-return.ts';
import { capturingMailer, fakeClock } from './support/fakes.ts';
import { API, answer, capturingSms, logIn, pastNewRecoveryCodes, type StepAnswer } from './support/mfa.ts';
import { TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const PHONE = '+447700900123';

describe('second factors by emailed and texted codes', () => {
  const clock = fakeClock(Date.now());
  const mail = capturingMailer();
  const texts = capturingSms();
  let server: TestApp;
  let login: { email: string; password: string; clientId: string; redirectUri: string };
  beforeAll(async () => {
    server = await startTestApp({ clock: clock.now, mailer: mail.mailer, sms: texts.sms });
    login = { ...server.publicClient, email: server.user.email, password: server.user.password };
  });
  afterAll(async () => {
    await server.close();
  });

  it('offers every kind of factor to a user without one, and sets email up with the code sent to the address', async () => {
    const browser = new TestBrowser(server.app);
    const { answer: first } = await logIn(browser, login);
    expect(first).toEqual({
      challenge: 'MFA_SETUP',
      parameters: { availableChoices: [{ type: 'email', destination: 'd•••@example.com' }, { type: 'sms' }, { type: 'totp' }, { type: 'passkey' }], registration: false },
    });
    const sent = answer<StepAnswer>(await browser.request('POST', `${API}/auth/2fa/initialization`, { type: 'email' }));
    expect(sent.challenge).toBe('EMAIL_MFA');
    expect(sent.parameters).toMatchObject({ action: 'setup', channel: 'email', delivery_destination: 'd•••@example.com', retry_after: 60, expires_in: 600 });
    expect(sent.parameters?.sent_at).toBe(new Date(clock.now()).toISOString());
    const verified = answer<StepAnswer>(await browser.request('POST', `${API}/auth/2fa/verification`, { code: await mail.latestCode(server.user.email) }));
    const { done, codes } = await pastNewRecoveryCodes(browser, verified);
    expect(codes).toHaveLength(10);
    expect(done.redirect_to).toMatch(/\/oidc\/auth\//);
  });

  it('signs in with the emailed code once email is the factor, and says so in amr', async () => {
    clock.advance(120);
    const browser = new TestBrowser(server.app);
    const { answer: first, codeVerifier } = await logIn(browser, login);
    expect(first.challenge).toBe('EMAIL_MFA');
    expect(first.parameters).not.toHaveProperty('action');
    const done = answer<StepAnswer>(await browser.request('POST', `${API}/auth/mfa/verification`, { code: await mail.latestCode(server.user.email) }));
    const callback = await followToClient(browser, String(done.redirect_to), server.publicClient.redirectUri);
    expect((await whatTheAppSees(server.app, server.publicClient, callback, codeVerifier)).idToken.amr).toEqual(['pwd', 'mfa', 'otp']);
  });

  it('kills the code after 5 wrong tries, counted across sessions, so even the right code then fails', async () => {
    clock.advance(120);
    const first = new TestBrowser(server.app);
    await logIn(first, login);
    const code = await mail.latestCode(server.user.email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await first.request('POST', `${API}/auth/mfa/verification`, { code: wrong })).json().error_code).toBe('code.invalid');
    const second = new TestBrowser(server.app);
    await logIn(second, login);
    for (let attempt = 0; attempt < 2; attempt += 1) expect((await second.request('POST', `${API}/auth/mfa/verification`, { code: wrong })).json().error_code).toBe('code.invalid');
    const dead = await second.request('POST', `${API}/auth/mfa/verification`, { code });
    expect(dead.statusCode).toBe(429);
    expect(dead.json()).toEqual({ error_code: 'code.too_many_attempts', error_message: 'Too many wrong codes. For your security, wait a while before asking for a new code.' });
    expect(dead.headers['retry-after']).toBe(String(LIMITS.ONE_TIME_CODE_FAILURE_WINDOW));
    // The spent tries stay spent until their window ends; after it, a fresh sign-in gets a code that works.
    clock.advance(LIMITS.ONE_TIME_CODE_FAILURE_WINDOW);
    const later = new TestBrowser(server.app);
    await logIn(later, login);
    expect((await later.request('POST', `${API}/auth/mfa/verification`, { code: await mail.latestCode(server.user.email) })).statusCode).toBe(200);
  });

  it('resends only after the cooldown the screen counts down, and the new code works', async () => {
    clock.advance(120);
    const browser = new TestBrowser(server.app);
    await logIn(browser, login);
    const early = await browser.request('POST', `${API}/auth/mfa/otp/resend/request`, {});
    expect(early.statusCode).toBe(429);
    expect(early.json().error_code).toBe('code.resend_too_soon');
    clock.advance(60);
    const resent = answer<StepAnswer>(await browser.request('POST', `${API}/auth/mfa/otp/resend/request`, {}));
    expect(resent).toMatchObject({ challenge: 'RESEND_OTP', parameters: { channel: 'email', retry_after: 60, delivery_destination: 'd•••@example.com' } });
    const where = answer<StepAnswer>(await browser.request('GET', `${API}/auth/mfa/otp`));
    expect(where).toMatchObject({ challenge: 'EMAIL_MFA', parameters: { sent_at: new Date(clock.now()).toISOString() } });
    const done = await browser.request('POST', `${API}/auth/mfa/otp/resend/submit`, { code: await mail.latestCode(server.user.email) });
    expect(done.statusCode).toBe(200);
  });

  it('sets up SMS with a verified number and signs in by text, the text ending with the origin-bound code line', async () => {
    clock.advance(120);
    const user = await server.context.db.query<{ id: string }>('select id from users where email = $1', [server.user.email]);
    await server.context.db.query('delete from mfa_factors where user_id = $1', [user.rows[0]!.id]);
    const browser = new TestBrowser(server.app);
    expect((await logIn(browser, login)).answer.challenge).toBe('MFA_SETUP');
    expect(answer<StepAnswer>(await browser.request('POST', `${API}/auth/2fa/initialization`, { type: 'sms' }))).toEqual({ challenge: 'SETUP_SMS_MFA', parameters: {} });
    const bad = await browser.request('POST', `${API}/auth/2fa/initialization`, { phone: '+44 12' });
    // The answer names the field, so the phone step shows the message on the number.
    expect(bad.json()).toMatchObject({ error_code: 'request.invalid', error_params: { field: 'phone' } });
    const sent = answer<StepAnswer>(await browser.request('POST', `${API}/auth/2fa/initialization`, { phone: '+44 7700 900-123' }));
    expect(sent).toMatchObject({ challenge: 'VERIFY_SETUP_SMS_MFA', parameters: { delivery_destination: '•••0123', action: 'setup', channel: 'sms' } });
    const text = texts.sent.at(-1)!;
    expect(text.to).toBe(PHONE);
    expect(text.text).toMatch(/\n@localhost:8080 #\d{6}$/);
    expect((await browser.request('POST', `${API}/auth/2fa/verification`, { code: texts.latestCode(PHONE) })).statusCode).toBe(200);

    clock.advance(120);
    const next = new TestBrowser(server.app);
    const { answer: challenge, codeVerifier } = await logIn(next, login);
    expect(challenge).toMatchObject({ challenge: 'SMS_MFA', parameters: { delivery_destination: '•••0123' } });
    const done = answer<StepAnswer>(await next.request('POST', `${API}/auth/mfa/verification`, { code: texts.latestCode(PHONE) }));
    const callback = await followToClient(next, String(done.redirect_to), server.publicClient.redirectUri);
    expect((await whatTheAppSees(server.app, server.publicClient, callback, codeVerifier)).idToken.amr).toEqual(['pwd', 'mfa', 'otp', 'sms']);
  });

  it('lets a user with several factors pick one, and switch to another', async () => {
    clock.advance(120);
    const user = await server.context.db.query<{ id: string }>('select id from users where email = $1', [server.user.email]);
    await server.context.db.query("insert into mfa_factors (id, user_id, kind, confirmed_at) values (gen_random_uuid(), $1, 'email', now())", [user.rows[0]!.id]);
    const browser = new TestBrowser(server.app);
    const { answer: first } = await logIn(browser, login);
    expect(first).toEqual({
      challenge: 'SELECT_MFA_TYPE',
      parameters: { availableChoices: [{ type: 'email', destination: 'd•••@example.com' }, { type: 'sms', destination: '•••0123' }], has_recovery_codes: true },
    });
    expect(answer<StepAnswer>(await browser.request('POST', `${API}/auth/mfa/selection`, { type: 'sms' })).challenge).toBe('SMS_MFA');
    expect(answer<StepAnswer>(await browser.request('GET', `${API}/auth/mfa/selection`)).challenge).toBe('SELECT_MFA_TYPE');
    const refused = await browser.request('POST', `${API}/auth/mfa/selection`, { type: 'totp' });
    expect(refused.json()).toEqual({ error_code: 'mfa.method_unavailable', error_message: 'Choose one of the methods in the list.' });
    expect(answer<StepAnswer>(await browser.request('POST', `${API}/auth/mfa/selection`, { type: 'email' })).challenge).toBe('EMAIL_MFA');
    expect((await browser.request('POST', `${API}/auth/mfa/verification`, { code: await mail.latestCode(server.user.email) })).statusCode).toBe(200);
  });
});
