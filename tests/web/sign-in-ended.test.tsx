/**
 * Coming back to a sign-in that can no longer go on (Back, Forward or a reload after it finished, or expired, or
 * moved on): the honest screen of flows/errors.json, never blame or a retry that leads nowhere.
 */
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeServer, type FakeRoutes } from './support/fake-server.ts';
import { renderAppAt } from './support/render-app.tsx';

const SIGN_IN = '?client_id=merchant-portal&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=s1&interaction=int-1';
const GONE = { status: 401, body: { error_code: 'transaction.missing', error_message: 'Your sign-in has expired.' } };
const MOVED_ON = { status: 409, body: { error_code: 'step.out_of_order', error_message: 'This step is not available.' } };
const BLAME = /on our side|went wrong|Try again/i;

afterEach(cleanup);

function routes(overrides: FakeRoutes): FakeRoutes {
  return { 'GET clients/merchant-portal': { body: { client_id: 'merchant-portal', name: 'Merchant Portal' } }, ...overrides };
}

describe('a sign-in that can no longer go on', { timeout: 20_000 }, () => {
  it('says "You\'re signed in to <app>" with a button back to the app when a step of a finished sign-in is entered again', async () => {
    const server = fakeServer(
      routes({
        'GET auth/mfa/otp': GONE,
        'GET auth/sign-in/status': { body: { parameters: { signed_in: true, client_name: 'Merchant Portal', app_url: 'https://app.example/' } } },
      }),
    );
    renderAppAt(`/auth/mfa/verify-email${SIGN_IN}`);
    expect(await screen.findByRole('heading', { name: "You're signed in to Merchant Portal" })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the app' }).getAttribute('href')).toBe('https://app.example/');
    expect(document.body.textContent).not.toMatch(BLAME);
    expect(window.location.pathname).toBe('/auth/sign-in/ended');
    const status = server.requests.find((request) => request.path === 'auth/sign-in/status');
    expect(status?.query.get('client_id')).toBe('merchant-portal');
    expect(status?.query.get('interaction')).toBe('int-1');
  });

  it('says "This sign-in has ended" without blame when the sign-in expired', async () => {
    fakeServer(
      routes({
        'GET authorize': GONE,
        'GET auth/sign-in/status': { body: { parameters: { signed_in: false, client_name: 'Merchant Portal', app_url: 'https://app.example/' } } },
      }),
    );
    renderAppAt(`/auth/login${SIGN_IN}`);
    expect(await screen.findByRole('heading', { name: 'This sign-in has ended' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the app' })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(BLAME);
  });

  it('shows the step the sign-in is at now, with its choices, when a step it has moved past is entered again', async () => {
    fakeServer(
      routes({
        'GET auth/mfa/otp': MOVED_ON,
        'GET authorize': { body: { challenge: 'MFA_SETUP', parameters: { client_id: 'merchant-portal', client_name: 'Merchant Portal' } } },
        'GET auth/mfa/selection': { body: { challenge: 'MFA_SETUP', parameters: { availableChoices: [{ type: 'email', destination: 'a•••@example.com' }, { type: 'totp' }] } } },
      }),
    );
    renderAppAt(`/auth/mfa/verify-email/setup${SIGN_IN}`);
    expect(await screen.findByRole('radio', { name: 'Authenticator app' })).toBeTruthy();
    expect(window.location.pathname).toBe('/auth/mfa/select-mfa');
    expect(document.body.textContent).not.toMatch(BLAME);
  });

  it('offers "Use another method" on the phone-number screen, which lists the methods again', async () => {
    const choices = { challenge: 'MFA_SETUP', parameters: { availableChoices: [{ type: 'email', destination: 'a•••@example.com' }, { type: 'sms' }, { type: 'totp' }] } };
    fakeServer(
      routes({
        'GET auth/mfa/selection': [{ body: choices }, { body: choices }],
        'POST auth/2fa/initialization': { body: { challenge: 'SETUP_SMS_MFA', parameters: {} } },
      }),
    );
    renderAppAt(`/auth/mfa/select-mfa${SIGN_IN}`);
    await userEvent.click(await screen.findByRole('radio', { name: 'Text message (SMS) to your mobile phone' }));
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByLabelText('Mobile number');
    expect(window.location.pathname).toBe('/auth/mfa/setup-phone');
    await userEvent.click(screen.getByRole('link', { name: 'Use another method' }));
    await waitFor(() => expect(window.location.pathname).toBe('/auth/mfa/select-mfa'));
    expect(await screen.findByRole('radio', { name: 'Authenticator app' })).toBeTruthy();
  });
});

describe('error screens that do not loop', () => {
  it('offers "Try again" after a passing server fault, back into the sign-in', async () => {
    fakeServer(routes({ 'GET auth/mfa/otp': { status: 500, body: { error_code: 'server.error', error_message: 'Something went wrong on our side.' } } }));
    renderAppAt(`/auth/mfa/verify-email${SIGN_IN}`);
    const retry = await screen.findByRole('link', { name: 'Try again' });
    expect(retry.getAttribute('href')).toBe(`/auth/login${SIGN_IN}`);
  });

  it('the error page entered again (a reload) asks where the sign-in is instead of blaming the server', async () => {
    fakeServer(routes({ 'GET authorize': { body: { challenge: 'SOFTWARE_TOKEN_MFA', parameters: {} } } }));
    renderAppAt(`/auth/error${SIGN_IN}`);
    await waitFor(() => expect(window.location.pathname).toBe('/auth/mfa/totp'));
    expect(document.body.textContent).not.toMatch(/on our side/);
  });
});
