/**
 * The second-factor screens as the engine renders them from flows/mfa.json, against a fake API: variants of one route
 * (setting up, a phone number, signing up), the authenticator panel, the resend action with the server's countdown,
 * the code sent after a resend, and the cancel link's event.
 */
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeServer, type FakeRoutes } from './support/fake-server.ts';
import { renderAppAt } from './support/render-app.tsx';

const SIGN_IN = '?client_id=merchant-portal&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=s1&interaction=int-1';
const SETUP_CHOICES = { availableChoices: [{ type: 'email', destination: 'a•••@example.com' }, { type: 'sms' }, { type: 'totp' }] };
const SMS_SENT = { channel: 'sms', delivery_destination: '•••0123', sent_at: '2026-11-22T09:00:00.000Z', expires_in: 600, retry_after: 60, action: 'setup' };
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const TOTP_SETUP = {
  mfa_code: '0d9c4a7e-2f43-4f4e-9a1e-3b7f6c1d2e11',
  secret: SECRET,
  issuer: 'Payments Network – Merchant Portal',
  account: 'ada@example.com',
  otpauth_uri: `otpauth://totp/Payments%20Network%20%E2%80%93%20Merchant%20Portal:ada%40example.com?issuer=Payments%20Network%20%E2%80%93%20Merchant%20Portal&secret=${SECRET}`,
};

const events = () => ((globalThis as { dataLayer?: Array<{ event: string }> }).dataLayer ?? []).map((entry) => entry.event);

beforeEach(() => {
  (globalThis as { dataLayer?: unknown[] }).dataLayer = [];
});
afterEach(() => {
  cleanup();
  delete (globalThis as { dataLayer?: unknown[] }).dataLayer;
});

function routes(overrides: FakeRoutes = {}): FakeRoutes {
  return { 'GET clients/merchant-portal': { body: { client_id: 'merchant-portal', name: 'Merchant Portal' } }, ...overrides };
}

describe('second-factor screens', () => {
  it('sets up SMS on one route: the choice, then the number in a fresh form, then the code screen with its countdown', async () => {
    const server = fakeServer(
      routes({
        'GET auth/mfa/selection': { body: { challenge: 'MFA_SETUP', parameters: { ...SETUP_CHOICES, registration: false } } },
        'POST auth/2fa/initialization': [{ body: { challenge: 'SETUP_SMS_MFA', parameters: {} } }, { body: { challenge: 'VERIFY_SETUP_SMS_MFA', parameters: SMS_SENT } }],
      }),
    );
    renderAppAt(`/auth/mfa/select-mfa${SIGN_IN}`);
    await userEvent.click(await screen.findByRole('radio', { name: 'Text message (SMS) to your mobile phone' }));
    expect(document.title).toBe('Authenticate | Add Alternative Authentication Method');
    expect(screen.getByRole('radio', { name: 'Email, to a•••@example.com' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const phone = await screen.findByLabelText('Mobile number');
    expect(document.title).toBe('Authenticate | Set Up Phone Number');
    expect(phone.getAttribute('type')).toBe('tel');
    await userEvent.type(phone, '+44 7700 900123');
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    await waitFor(() => expect(document.title).toBe('Authenticate | Set Up SMS MFA'));
    // The number just typed, in full on the screen and nowhere in the address.
    expect(decodeURIComponent(window.location.pathname)).toBe('/auth/mfa/otp/sms');
    expect(await screen.findByText(/^We sent a 6-digit code to \+44 7700 900123 at \d{2}:\d{2}\./)).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Send a new code (in 60 s)' })).toHaveProperty('disabled', true);
    expect(server.requests.filter((request) => request.method === 'POST').map((request) => [request.path, request.body])).toEqual([
      ['auth/2fa/initialization', { type: 'sms' }],
      ['auth/2fa/initialization', { phone: '+44 7700 900123' }],
    ]);
  });

  it('during sign-up calls register/totp, shows the authenticator panel, and ends on the success screen', async () => {
    const server = fakeServer(
      routes({
        'GET auth/mfa/selection': { body: { challenge: 'MFA_SETUP', parameters: { ...SETUP_CHOICES, registration: true } } },
        'POST register/totp': { body: { challenge: 'SETUP_SOFTWARE_TOKEN_MFA', parameters: { ...TOTP_SETUP, registration: true } } },
        'POST register/totp/verification': { body: { challenge: 'SUCCESS_REGISTRATION', redirect_to: 'https://app.example/cb?code=abc&state=s1' } },
      }),
    );
    renderAppAt(`/auth/mfa/select-mfa${SIGN_IN}`);
    await userEvent.click(await screen.findByRole('radio', { name: 'Authenticator app' }));
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toBeTruthy();
    expect(document.title).toBe('Authenticate | Set Up Authenticator App MFA');
    expect(window.location.pathname).toBe(`/auth/mfa/setup-totp/${TOTP_SETUP.mfa_code}`);
    expect(screen.getByTestId('totp-secret').textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    expect(screen.getByRole('link', { name: 'Open in an authenticator app on this device' }).getAttribute('href')).toBe(TOTP_SETUP.otpauth_uri);
    expect(screen.getByText('Issuer: Payments Network – Merchant Portal')).toBeTruthy();
    await userEvent.type(screen.getByRole('textbox', { name: 'Code' }), '123 456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify and finish' }));
    await waitFor(() => expect(document.title).toBe('Register | Success'));
    expect(server.requests.find((request) => request.path === 'register/totp/verification')?.body).toEqual({ code: '123456', trustDevice: false });
  });

  it('shows "Send a new code" together with the code field, disabled and counting down while the wait runs', async () => {
    fakeServer(
      routes({
        'GET auth/mfa/otp': { body: { challenge: 'EMAIL_MFA', parameters: { channel: 'email', delivery_destination: 'a•••@example.com', sent_at: '2026-11-22T09:00:00.000Z', retry_after: 60 } } },
      }),
    );
    renderAppAt(`/auth/mfa/verify-email${SIGN_IN}`);
    await screen.findByRole('textbox', { name: 'Code' });
    // In the same render as the field: no later chunk makes it pop in under the user's thumb.
    const resend = screen.getByRole('button', { name: /^Send a new code \(in (60|59) s\)$/ });
    expect(resend).toHaveProperty('disabled', true);
  });

  it('asks for a new code once the wait is over, then submits the code through the resend call', async () => {
    const server = fakeServer(
      routes({
        'GET auth/mfa/otp': { body: { challenge: 'EMAIL_MFA', parameters: { channel: 'email', delivery_destination: 'a•••@example.com', sent_at: '2026-11-22T09:00:00.000Z', retry_after: 0 } } },
        'POST auth/mfa/otp/resend/request': { body: { challenge: 'RESEND_OTP', parameters: { channel: 'email', delivery_destination: 'a•••@example.com', sent_at: '2026-11-22T09:05:00.000Z', retry_after: 60 } } },
        'POST auth/mfa/otp/resend/submit': { body: { redirect_to: 'https://app.example/cb?code=abc&state=s1' } },
      }),
    );
    renderAppAt(`/auth/mfa/verify-email${SIGN_IN}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Send a new code' }));
    expect(await screen.findByRole('button', { name: 'Send a new code (in 60 s)' })).toHaveProperty('disabled', true);
    expect(document.title).toBe('Authenticate | Verify Using Email');
    await userEvent.type(screen.getByRole('textbox', { name: 'Code' }), '654321');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(server.requests.map((request) => request.path)).toContain('auth/mfa/otp/resend/submit'));
    expect(events()).toEqual(['login_email_otp_request_success', 'login_email_otp_request_success', 'login_email_otp_verify_success']);
  });

  it.each([
    ['an ordinary sign-in offers it, off by default', {}, true],
    ["a client's shared-device hint hides it and leaves it out of the call", { shared_device: true }, false],
  ])('"Don\'t ask for a code on this device for 30 days": %s', async (_case, hint, offered) => {
    const server = fakeServer(
      routes({
        'GET auth/mfa/otp': { body: { challenge: 'EMAIL_MFA', parameters: { channel: 'email', delivery_destination: 'a•••@example.com', sent_at: '2026-11-22T09:00:00.000Z', retry_after: 60, ...hint } } },
        'POST auth/mfa/verification': { body: { redirect_to: 'https://app.example/cb?code=abc&state=s1' } },
      }),
    );
    renderAppAt(`/auth/mfa/verify-email${SIGN_IN}`);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Code' }), '654321');
    const checkbox = screen.queryByRole('checkbox', { name: "Don't ask for a code on this device for 30 days" });
    expect(checkbox !== null).toBe(offered);
    if (checkbox) expect(checkbox).toHaveProperty('checked', false);
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(server.requests.map((request) => request.path)).toContain('auth/mfa/verification'));
    const sent = server.requests.find((request) => request.path === 'auth/mfa/verification')?.body;
    expect(sent).toEqual(offered ? { code: '654321', trustDevice: false } : { code: '654321' });
  });

  it('says what a short code lacks in the spec\'s words, and tracks cancelling the app code on the way to the choice', async () => {
    fakeServer(routes({ 'GET auth/mfa/selection': { body: { challenge: 'SELECT_MFA_TYPE', parameters: { availableChoices: [{ type: 'totp' }] } } } }));
    renderAppAt(`/auth/mfa/totp${SIGN_IN}`);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Code' }), '12');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Please enter 6-digit TOTP code')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Code' }).getAttribute('autocomplete')).toBe('one-time-code');
    await userEvent.click(screen.getByRole('link', { name: 'Cancel and choose another method' }));
    await waitFor(() => expect(document.title).toBe('Authenticate'));
    expect(await screen.findByRole('radio', { name: 'Authenticator app' })).toBeTruthy();
    expect(events()).toContain('cancel_totp_verify');
  });

  it('answers a wrong authenticator code with what to do (the current code, the phone clock), not "ask for a new one"', async () => {
    const wrong = { error_code: 'code.invalid', error_message: 'That code is not right.', error_params: { reason: 'mfaTotp.codeInvalid' } };
    fakeServer(routes({ 'POST auth/mfa/verification': { status: 400, body: wrong } }));
    renderAppAt(`/auth/mfa/totp${SIGN_IN}`);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Code' }), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Enter the code your authenticator app shows now');
    expect(alert.textContent).toContain('clock');
    expect(alert.textContent).not.toContain('new one');
  });

  it('says when another code may be sent once the hourly cap is reached, in the local time, and offers another method', async () => {
    const retryAt = '2026-11-22T10:00:00.000Z';
    const capped = { error_code: 'code.too_many_requested', error_message: `You have asked for too many codes. Try again after ${retryAt}, or use another method.`, error_params: { retry_at: retryAt } };
    fakeServer(routes({ 'POST auth/mfa/verification': { status: 429, body: capped } }));
    renderAppAt(`/auth/mfa/totp${SIGN_IN}`);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Code' }), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    const alert = await screen.findByRole('alert');
    const local = new Date(retryAt).toLocaleTimeString('en', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    expect(alert.textContent).toContain(`You have asked for too many codes. Try again after ${local}, or use another method.`);
    expect(alert.textContent).not.toContain(retryAt);
  });

  it('ties the code field to the error message shown above it, so a screen reader on the field reads it', async () => {
    const wrong = { error_code: 'code.invalid', error_message: 'That code is not right.', error_params: { reason: 'mfaTotp.codeInvalid' } };
    fakeServer(routes({ 'POST auth/mfa/verification': { status: 400, body: wrong } }));
    renderAppAt(`/auth/mfa/totp${SIGN_IN}`);
    const field = await screen.findByRole('textbox', { name: 'Code' });
    expect(field.getAttribute('aria-describedby')).toBeNull();
    await userEvent.type(field, '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    const alert = await screen.findByRole('alert');
    const describedBy = (screen.getByRole('textbox', { name: 'Code' }).getAttribute('aria-describedby') ?? '').split(' ');
    expect(describedBy).toContain(alert.id);
    expect(screen.getByRole('textbox', { name: 'Code', description: alert.textContent ?? '' })).toBeTruthy();
  });
});
