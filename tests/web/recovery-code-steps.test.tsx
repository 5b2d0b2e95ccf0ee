/**
 * Recovery codes at sign-in, as the engine renders flows/mfa.json: "Use a recovery code" only for a person the
 * server says has some, after a code the setup screen that says what happened and offers to drop the lost factors,
 * and the codes a first factor just made shown without a "Back" that could only find the sign-in past the setup.
 */
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeServer, type FakeRoutes } from './support/fake-server.ts';
import { renderAppAt } from './support/render-app.tsx';

const SIGN_IN = '?client_id=merchant-portal&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=s1&interaction=int-1';
const EMAIL_CODE = { channel: 'email', delivery_destination: 'a•••@example.com', sent_at: '2026-11-22T09:00:00.000Z', retry_after: 60 };
const SETUP_CHOICES = { availableChoices: [{ type: 'email', destination: 'a•••@example.com' }, { type: 'totp' }], registration: false };
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const TOTP_SETUP = { mfa_code: '0d9c4a7e-2f43-4f4e-9a1e-3b7f6c1d2e11', secret: SECRET, issuer: 'Payments Network', account: 'ada@example.com', otpauth_uri: `otpauth://totp/Payments%20Network:ada%40example.com?secret=${SECRET}` };
const NEW_CODES = Array.from({ length: 10 }, (_, index) => `ABCD-EFGH-JK${String(index).padStart(2, '2')}`);

afterEach(cleanup);

function routes(overrides: FakeRoutes = {}): FakeRoutes {
  return { 'GET clients/merchant-portal': { body: { client_id: 'merchant-portal', name: 'Merchant Portal' } }, ...overrides };
}

describe('recovery codes at sign-in', () => {
  it.each([
    ['offers "Use a recovery code" to a person who has some', true],
    ['does not offer "Use a recovery code" to a person who has none', false],
  ])('%s', async (_case, has) => {
    fakeServer(routes({ 'GET auth/mfa/otp': { body: { challenge: 'EMAIL_MFA', parameters: { ...EMAIL_CODE, has_recovery_codes: has } } } }));
    renderAppAt(`/auth/mfa/verify-email${SIGN_IN}`);
    await screen.findByRole('textbox', { name: 'Code' });
    expect(screen.getByRole('link', { name: 'Use another method' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Use a recovery code' }) !== null).toBe(has);
  });

  /** Signs in with a recovery code on a server that then offers a new method, `left` codes remaining. */
  async function signInWithRecoveryCode(left: number) {
    const server = fakeServer(
      routes({
        'POST auth/mfa/recovery': { body: { challenge: 'MFA_SETUP', parameters: { ...SETUP_CHOICES, recovery_codes_left: left } } },
        'POST auth/2fa/initialization': { body: { challenge: 'EMAIL_MFA', parameters: { ...EMAIL_CODE, action: 'setup' } } },
      }),
    );
    renderAppAt(`/auth/mfa/recovery-code${SIGN_IN}`);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Recovery code' }), 'ABCD-EFGH-JKLM');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    return server;
  }

  it('after a recovery code says it was used and how many are left, and sends the wish to remove the lost methods with the choice', async () => {
    const server = await signInWithRecoveryCode(7);
    expect(await screen.findByRole('heading', { name: 'You signed in with a recovery code' })).toBeTruthy();
    expect(screen.getByText(/you have 7 recovery codes left/)).toBeTruthy();
    const removeLost = await screen.findByRole('checkbox', { name: 'Remove my other sign-in methods once the new one works (the ones I lost)' });
    expect(removeLost).toHaveProperty('checked', false);
    await userEvent.click(removeLost);
    await userEvent.click(await screen.findByRole('radio', { name: 'Email, to a•••@example.com' }));
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(server.requests.map((request) => request.path)).toContain('auth/2fa/initialization'));
    expect(server.requests.find((request) => request.path === 'auth/2fa/initialization')?.body).toEqual({ type: 'email', removeLost: true });
  });

  it('sets up a new method after a recovery code without the lost ones being touched when the box stays empty', async () => {
    const server = await signInWithRecoveryCode(1);
    expect(await screen.findByText(/you have 1 recovery code left/)).toBeTruthy();
    await userEvent.click(await screen.findByRole('radio', { name: 'Email, to a•••@example.com' }));
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(server.requests.map((request) => request.path)).toContain('auth/2fa/initialization'));
    expect(server.requests.find((request) => request.path === 'auth/2fa/initialization')?.body).toEqual({ type: 'email', removeLost: false });
  });

  it('shows the codes a first authenticator app just made with no Back, where the setup before it had one', async () => {
    fakeServer(
      routes({
        'GET auth/mfa/selection': { body: { challenge: 'MFA_SETUP', parameters: SETUP_CHOICES } },
        'POST auth/2fa/initialization': { body: { challenge: 'SETUP_SOFTWARE_TOKEN_MFA', parameters: TOTP_SETUP } },
        'POST auth/2fa/verification': { body: { challenge: 'SAVE_RECOVERY_CODES', parameters: { recovery_codes: NEW_CODES } } },
      }),
    );
    renderAppAt(`/auth/mfa/select-mfa${SIGN_IN}`);
    await userEvent.click(await screen.findByRole('radio', { name: /Authenticator app/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await userEvent.type(await screen.findByRole('textbox', { name: 'Code' }), '123456');
    expect(screen.getByRole('button', { name: 'Back' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Verify and finish' }));
    expect(await screen.findAllByRole('listitem')).toHaveLength(10);
    expect(screen.getByRole('heading', { name: 'Save your recovery codes' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Back' })).toBeNull();
  });
});
