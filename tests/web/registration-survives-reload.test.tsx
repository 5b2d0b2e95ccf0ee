/**
 * Registration survives a reload, Back and Forward: what the user typed is kept in the tab's sessionStorage (never
 * the password), job details stay reachable in the tab that reached them, and the success screen entered again
 * says the sign-in is over instead of offering a retry.
 */
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestCredentialKey, type TestCredentialKey } from './support/credential-key.ts';
import { fakeServer, type FakeRoutes } from './support/fake-server.ts';
import { renderAppAt } from './support/render-app.tsx';

const SIGN_IN = '?client_id=merchant-portal&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=s1&interaction=int-1';
const SENT = { parameters: { delivery_destination: 'a•••@example.com', sent_at: '2026-11-22T09:00:00.000Z', expires_in: 600, retry_after: 60 } };
const PASSWORD = 'Quartz-Lantern-42!';

let key: TestCredentialKey;
beforeAll(async () => {
  key = await createTestCredentialKey();
});
afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

function registrationRoutes(overrides: FakeRoutes = {}): FakeRoutes {
  return {
    'GET clients/merchant-portal': { body: { client_id: 'merchant-portal', name: 'Merchant Portal' } },
    'GET crypto/rsa-public-key': () => ({ body: key.answer }),
    'GET authorize': { body: { challenge: 'LOGIN_REQUIRED', parameters: { client_id: 'merchant-portal', client_name: 'Merchant Portal' } } },
    'POST register': { body: SENT },
    'POST register/attributes/job-details': { body: SENT },
    ...overrides,
  };
}

/** Opens the register form, fills it and submits it, up to job details. */
async function registerUpToJobDetails() {
  renderAppAt(`/auth/register${SIGN_IN}`);
  await userEvent.type(await screen.findByLabelText('Email'), 'ada@example.com');
  await userEvent.type(screen.getByLabelText('First name'), 'Ada');
  await userEvent.type(screen.getByLabelText('Last name'), 'Lovelace');
  await userEvent.type(screen.getByLabelText('Password'), PASSWORD);
  await userEvent.click(await screen.findByLabelText('I accept the Terms and Conditions'));
  await userEvent.click(screen.getByRole('button', { name: 'Register' }));
  await screen.findByLabelText('Job title');
}

describe('registration survives reload, Back and Forward', { timeout: 20_000 }, () => {
  it('reloading job details stays on job details', async () => {
    fakeServer(registrationRoutes());
    await registerUpToJobDetails();
    cleanup();
    renderAppAt(`/auth/job-details${SIGN_IN}`);
    expect(await screen.findByLabelText('Job title')).toBeTruthy();
    expect(window.location.pathname).toBe('/auth/job-details');
  });

  it('going back to the register form finds what was typed, except the password', async () => {
    fakeServer(registrationRoutes());
    await registerUpToJobDetails();
    expect(sessionStorage.getItem('sso.submitted') ?? '').not.toContain(PASSWORD);
    cleanup();
    renderAppAt(`/auth/register${SIGN_IN}`);
    expect(await screen.findByDisplayValue('ada@example.com')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('First name').value).toBe('Ada');
    expect(screen.getByLabelText<HTMLInputElement>('Last name').value).toBe('Lovelace');
    expect(screen.getByLabelText<HTMLInputElement>('Password').value).toBe('');
  });

  it('going back from the code screen to job details finds the job details typed', async () => {
    fakeServer(registrationRoutes({ 'GET register/otp': { body: SENT } }));
    await registerUpToJobDetails();
    await userEvent.type(screen.getByLabelText('Job title'), 'Treasurer');
    await userEvent.type(screen.getByLabelText('Department'), 'Finance');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(window.location.pathname).toMatch(/^\/auth\/register\/verify-email\//));
    cleanup();
    renderAppAt(`/auth/job-details${SIGN_IN}`);
    expect(await screen.findByDisplayValue('Treasurer')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Department').value).toBe('Finance');
  });

  it('the registration success screen entered again says the sign-in is over, with no "Try again"', async () => {
    fakeServer(
      registrationRoutes({
        'GET auth/sign-in/status': { body: { parameters: { signed_in: true, client_name: 'Merchant Portal', app_url: 'https://app.example/' } } },
      }),
    );
    renderAppAt(`/auth/register/success${SIGN_IN}`);
    expect(await screen.findByRole('heading', { name: "You're signed in to Merchant Portal" })).toBeTruthy();
    expect(screen.queryByText('Try again')).toBeNull();
    expect(screen.queryByText('Congratulations')).toBeNull();
  });
});

describe("a client's link to register", { timeout: 20_000 }, () => {
  it.each(['/auth/register', '/auth/sign-up', '/auth/auth/sign-up'])('%s with a client opens Register inside that client\'s sign-in, as prompt=create does', async (path) => {
    const server = fakeServer(registrationRoutes({ 'GET authorize': { body: { redirect_to: '/oidc/auth?client_id=merchant-portal&prompt=create' } } }));
    renderAppAt(`${path}?client_id=merchant-portal&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=s1`);
    await waitFor(() => expect(server.requests.some((request) => request.path === 'authorize')).toBe(true));
    const authorize = server.requests.find((request) => request.path === 'authorize');
    expect(authorize?.query.get('prompt')).toBe('create');
    expect(authorize?.query.get('client_id')).toBe('merchant-portal');
  });
});
