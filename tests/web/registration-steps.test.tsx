/**
 * Registration as the engine renders it from flows/registration.json, against a fake API: the
 * job-details guard, the code screen's waiting resend link and the success screen's way back.
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
afterEach(cleanup);

function registrationRoutes(overrides: FakeRoutes = {}): FakeRoutes {
  return {
    'GET clients/merchant-portal': { body: { client_id: 'merchant-portal', name: 'Merchant Portal' } },
    'GET crypto/rsa-public-key': () => ({ body: key.answer }),
    'GET authorize': { body: { challenge: 'LOGIN_REQUIRED', parameters: { client_id: 'merchant-portal', client_name: 'Merchant Portal' } } },
    'POST register': { body: SENT },
    'POST register/attributes/job-details': { body: SENT },
    'POST register/otp/verification': { body: { challenge: 'SUCCESS_REGISTRATION', redirect_to: 'https://app.example/cb?code=abc&state=s1' } },
    ...overrides,
  };
}

/** Fills the register form and submits it. */
async function submitRegisterForm() {
  await userEvent.type(await screen.findByLabelText('Email'), 'ada@example.com');
  await userEvent.type(screen.getByLabelText('First name'), 'Ada');
  await userEvent.type(screen.getByLabelText('Last name'), 'Lovelace');
  await userEvent.type(screen.getByLabelText('Password'), PASSWORD);
  await userEvent.click(await screen.findByLabelText('I accept the Terms and Conditions'));
  await userEvent.click(screen.getByRole('button', { name: 'Register' }));
}

describe('registration steps', () => {
  it('sends a user who opens job details by its address to register', async () => {
    fakeServer(registrationRoutes());
    renderAppAt(`/auth/job-details${SIGN_IN}`);
    await waitFor(() => expect(window.location.pathname).toBe('/auth/register'));
    expect(window.location.search).toBe(SIGN_IN);
    await screen.findByRole('heading', { name: 'Welcome! Create your account' });
  });

  it('leads from register to job details, then to the code screen with a resend link that waits', async () => {
    const server = fakeServer(registrationRoutes());
    renderAppAt(`/auth/register${SIGN_IN}`);
    await submitRegisterForm();
    await screen.findByRole('heading', { name: 'Tell us about your job' });
    expect(document.title).toBe('Register | Job Details');
    await userEvent.type(screen.getByLabelText('Job title'), 'Analyst');
    await userEvent.type(screen.getByLabelText('Department'), 'Finance');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('heading', { name: 'Confirm your email address' });
    expect(screen.getByText(/^Send a new code \(in (60|59) s\)$/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Send a new code/ })).toBeNull();
    const body = server.requests.find((request) => request.path === 'register/attributes/job-details')?.body;
    expect(body).toEqual({ jobTitle: 'Analyst', department: 'Finance' });
  });

  it('refuses to submit the register form until the terms are accepted', async () => {
    const server = fakeServer(registrationRoutes());
    renderAppAt(`/auth/register${SIGN_IN}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Register' }));
    await screen.findByText('Please accept the Terms and Conditions');
    expect(server.requests.some((request) => request.path === 'register')).toBe(false);
  });

  it('shows the success screen with a button back to the client app', async () => {
    fakeServer(registrationRoutes());
    renderAppAt(`/auth/register${SIGN_IN}`);
    await submitRegisterForm();
    await userEvent.type(await screen.findByLabelText('Job title'), 'Analyst');
    await userEvent.type(screen.getByLabelText('Department'), 'Finance');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await userEvent.type(await screen.findByLabelText('Verification code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await screen.findByRole('heading', { name: 'Congratulations' });
    expect(document.title).toBe('Register | Success');
    expect(screen.getByRole('link', { name: 'Continue to the app' }).getAttribute('href')).toBe('https://app.example/cb?code=abc&state=s1');
  });

  it('names the address just typed in full on the code screen, and "Wrong address? Change it" returns to the form with its details', async () => {
    fakeServer(registrationRoutes());
    renderAppAt(`/auth/register${SIGN_IN}`);
    await submitRegisterForm();
    await userEvent.type(await screen.findByLabelText('Job title'), 'Analyst');
    await userEvent.type(screen.getByLabelText('Department'), 'Finance');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('heading', { name: 'Confirm your email address' });
    expect(screen.getByText(/We sent a 6-digit code to ada@example\.com at/)).toBeTruthy();
    expect(screen.queryByText(/a•••@example\.com/)).toBeNull();
    await userEvent.click(screen.getByRole('link', { name: 'Wrong address? Change it' }));
    await screen.findByRole('heading', { name: 'Welcome! Create your account' });
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('ada@example.com');
    expect((screen.getByLabelText('First name') as HTMLInputElement).value).toBe('Ada');
    expect((screen.getByLabelText('Last name') as HTMLInputElement).value).toBe('Lovelace');
  });

  it('falls back to the masked address the server sent when this tab no longer holds the typed one', async () => {
    fakeServer(registrationRoutes({ 'GET register/otp': { body: SENT } }));
    renderAppAt(`/auth/register/verify-email/a%E2%80%A2%E2%80%A2%E2%80%A2%40example.com${SIGN_IN}`);
    await screen.findByRole('heading', { name: 'Confirm your email address' });
    expect(await screen.findByText(/We sent a 6-digit code to a•••@example\.com at/)).toBeTruthy();
  });
});
