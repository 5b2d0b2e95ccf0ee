/**
 * The moments the app shows a toast, each seen as the user does: a new code sent after a resend (named by the flow's
 * action), the authenticator key copied, a request that got no answer, and flags that could not be refreshed. Each
 * toast appears with its text, stays while hovered, and is gone 4 s after it appeared.
 */
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiObservers } from '../../src/services/api-client.ts';
import { appToasts } from '../../src/services/app-toasts.ts';
import { activateCatalogue, builtInCatalogue } from '../../src/services/messages.ts';
import { toastNetworkFailures } from '../../src/services/network-toasts.ts';
import { TotpSetupPanel } from '../../src/ui/panels/totp-setup-panel.tsx';
import { ToastRegion } from '../../src/ui/services/toast-region.tsx';
import german from '../../flows/messages/de.json';
import { fakeServer, type FakeRoutes } from './support/fake-server.ts';
import { renderAppAt } from './support/render-app.tsx';
import { expectToastLifecycle, toastCard } from './support/toast-lifecycle.ts';

const SIGN_IN = '?client_id=merchant-portal&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=s1&interaction=int-1';
const EMAIL_CODE = { channel: 'email', delivery_destination: 'a•••@example.com', sent_at: '2026-11-22T09:00:00.000Z', retry_after: 0 };
const SECRET = 'JBSWY3DPEHPK3PXP';

beforeEach(() => {
  // The clock runs on its own (requests and renders need it) and can be moved on to check a toast's timing.
  vi.useFakeTimers({ shouldAdvanceTime: true });
  render(<ToastRegion queue={appToasts} />);
});
afterEach(() => {
  act(() => appToasts.clear());
  cleanup();
  activateCatalogue('en', builtInCatalogue);
  vi.useRealTimers();
});

const user = () => userEvent.setup({ advanceTimers: vi.advanceTimersByTime });

function routes(overrides: FakeRoutes = {}): FakeRoutes {
  return {
    'GET clients/merchant-portal': { body: { client_id: 'merchant-portal', name: 'Merchant Portal' } },
    'GET auth/mfa/otp': { body: { challenge: 'EMAIL_MFA', parameters: EMAIL_CODE } },
    ...overrides,
  };
}

describe('toasts the user sees', () => {
  it('says "Code sent" after a new code was asked for, as the flow\'s resend action names it', async () => {
    fakeServer(routes({ 'POST auth/mfa/otp/resend/request': { body: { challenge: 'RESEND_OTP', parameters: { ...EMAIL_CODE, retry_after: 60 } } } }));
    renderAppAt(`/auth/mfa/verify-email${SIGN_IN}`);
    await user().click(await screen.findByRole('button', { name: 'Send a new code' }));
    await expectToastLifecycle('Code sent');
    expect(appToasts.list()).toEqual([]);
  });

  it('says nothing was sent when the resend is refused', async () => {
    fakeServer(routes({ 'POST auth/mfa/otp/resend/request': { status: 429, body: { error_code: 'otp.resend_too_soon', error_message: 'Please wait before asking for a new code.' } } }));
    renderAppAt(`/auth/mfa/verify-email${SIGN_IN}`);
    await user().click(await screen.findByRole('button', { name: 'Send a new code' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(toastCard('Code sent')).toBeUndefined();
  });

  it('says "Copied" in German too once the authenticator key is on the clipboard', async () => {
    activateCatalogue('de', german);
    const session = user();
    render(<TotpSetupPanel parameters={{ secret: SECRET, otpauth_uri: `otpauth://totp/Ada?secret=${SECRET}` }} submit={() => undefined} busy={false} />);
    await session.click(await screen.findByRole('button', { name: 'Schlüssel kopieren' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    await expectToastLifecycle('Kopiert');
  });

  it('announces a request that got no answer while a step is open, once for several at a time', async () => {
    const stop = toastNetworkFailures(apiObservers, appToasts);
    fakeServer(routes({ 'POST auth/mfa/otp/resend/request': () => Promise.reject(new TypeError('Failed to fetch')) }));
    renderAppAt(`/auth/mfa/verify-email${SIGN_IN}`);
    const resend = await screen.findByRole('button', { name: 'Send a new code' });
    await user().click(resend);
    await waitFor(() => expect(toastCard('Network error')).toBeTruthy());
    await user().click(resend);
    await waitFor(() => expect(resend).toHaveProperty('disabled', false));
    expect(appToasts.list().filter((toast) => toast.title === 'Network error')).toHaveLength(1);
    await expectToastLifecycle('Network error', 'Check your connection and try again.');
    stop();
  });

  it('stays quiet for a request the server answered, even with an error', async () => {
    const stop = toastNetworkFailures(apiObservers, appToasts);
    fakeServer(routes({ 'POST auth/mfa/otp/resend/request': { status: 500, body: { error_code: 'server.error', error_message: 'Something went wrong on our side, sorry and please try again' } } }));
    renderAppAt(`/auth/mfa/verify-email${SIGN_IN}`);
    await user().click(await screen.findByRole('button', { name: 'Send a new code' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(appToasts.list()).toEqual([]);
    stop();
  });
});
