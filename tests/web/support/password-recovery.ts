/**
 * The password-recovery API as the web tests fake it, and the moves that reach the code screen: shared by the
 * forgot-password and change-password test files.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TestCredentialKey } from './credential-key.ts';
import { fakeServer, type FakeRequest, type FakeRoutes } from './fake-server.ts';
import { fixture } from './fixtures.ts';
import { renderAppAt } from './render-app.tsx';

export const FLOW = 'password-recovery';
/** The sign-in a client app started: the recovery screens must carry it back to login. */
export const SIGN_IN = '?client_id=merchant-portal&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=s1&interaction=int-1';

/** The recovery API: the client is known, a code goes out, the confirmation succeeds. */
export function recoveryRoutes(key: TestCredentialKey, overrides: FakeRoutes = {}): FakeRoutes {
  return {
    'GET clients/merchant-portal': { body: { client_id: 'merchant-portal', name: 'Merchant Portal' } },
    'GET crypto/rsa-public-key': () => ({ body: key.answer }),
    'POST password/reset': fixture(FLOW, 'password-reset-sent'),
    'POST password/reset/confirmation': () => fixture(FLOW, 'reset-confirmation-success'),
    ...overrides,
  };
}

export const requestTo = (requests: FakeRequest[], path: string) => requests.filter((request) => request.path === path);

/** Forgot password for ada@example.com, then "Enter the code": the code screen is on show. */
export async function openChangePassword(key: TestCredentialKey, overrides: FakeRoutes = {}) {
  const server = fakeServer(recoveryRoutes(key, overrides));
  renderAppAt(`/auth/forgot-password${SIGN_IN}&username=ada%40example.com`);
  await userEvent.click(await screen.findByRole('button', { name: 'Send code' }));
  await userEvent.click(await screen.findByRole('link', { name: 'Enter the code' }));
  await screen.findByLabelText('Verification code');
  return server;
}

/** Types a code and a new password into the code screen and submits. */
export async function confirm(code: string, password: string) {
  if (code) await userEvent.type(screen.getByLabelText('Verification code'), code);
  if (password) await userEvent.type(screen.getByLabelText('New password'), password);
  await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));
}
