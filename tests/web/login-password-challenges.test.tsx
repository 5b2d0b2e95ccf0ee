/**
 * Where the login screen leads for passwords: its "Forgot password?" link, an operator-forced
 * reset (RESET_PASSWORD) and a temporary password (NEW_PASSWORD_REQUIRED, the new-password step).
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestCredentialKey, decryptField, type TestCredentialKey } from './support/credential-key.ts';
import { fakeServer, type FakeRoutes } from './support/fake-server.ts';
import { fixture } from './support/fixtures.ts';
import { renderAppAt } from './support/render-app.tsx';

vi.mock('../../src/ui/browser-navigation.ts', () => ({ leaveTo: vi.fn() }));
const { leaveTo } = await import('../../src/ui/browser-navigation.ts');

const FLOW = 'password-recovery';
const SIGN_IN = '?client_id=merchant-portal&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=s1&interaction=int-1';

let key: TestCredentialKey;

beforeAll(async () => {
  key = await createTestCredentialKey();
});

function loginRoutes(overrides: FakeRoutes = {}): FakeRoutes {
  return {
    'GET authorize': { body: { challenge: 'LOGIN_REQUIRED', parameters: { client_name: 'Merchant Portal' } } },
    'GET clients/merchant-portal': { body: { client_id: 'merchant-portal', name: 'Merchant Portal' } },
    'GET crypto/rsa-public-key': () => ({ body: key.answer }),
    ...overrides,
  };
}

/** Opens login, signs in as ada@example.com with a password, and waits for the screen that follows. */
async function logIn(email = 'ada@example.com', password = 'Temp-Passw0rd!') {
  renderAppAt(`/auth/login${SIGN_IN}`);
  await userEvent.type(await screen.findByLabelText('Email'), email);
  await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
}

describe('the "Forgot password?" link', () => {
  it('carries the sign-in query and the email typed so far to forgot-password', async () => {
    fakeServer(loginRoutes());
    renderAppAt(`/auth/login${SIGN_IN}`);
    await userEvent.type(await screen.findByLabelText('Email'), 'ada@example.com');
    const link = screen.getByRole('link', { name: 'Forgot password?' });
    expect(link.getAttribute('href')).toBe(`/auth/forgot-password${SIGN_IN}&username=ada%40example.com`);

    await userEvent.click(link);
    const email = await screen.findByLabelText('Email');
    expect(document.title).toBe('Forgot Password');
    expect((email as HTMLInputElement).value).toBe('ada@example.com');
  });

  it('carries only the query while the email is empty', async () => {
    fakeServer(loginRoutes());
    renderAppAt(`/auth/login${SIGN_IN}`);
    await screen.findByLabelText('Email');
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe(`/auth/forgot-password${SIGN_IN}`);
  });
});

describe('an operator-forced reset (RESET_PASSWORD)', () => {
  it('sends the user to forgot-password with the email the server names', async () => {
    fakeServer(loginRoutes({ 'POST auth/login': fixture(FLOW, 'login-reset-password') }));
    await logIn('ADA@example.com');
    await waitFor(() => expect(document.title).toBe('Forgot Password'));
    expect(((await screen.findByLabelText('Email')) as HTMLInputElement).value).toBe('ada@example.com');
    expect(window.location.pathname).toBe('/auth/forgot-password');
    expect(window.location.search).toBe(SIGN_IN);
  });
});

describe('new-password step (NEW_PASSWORD_REQUIRED)', () => {
  it('is titled "New Password" with the "Create New Password" headline and the live checklist', async () => {
    fakeServer(loginRoutes({ 'POST auth/login': fixture(FLOW, 'login-new-password-required') }));
    await logIn();
    const password = await screen.findByLabelText('New password');
    expect(document.title).toBe('New Password');
    expect(window.location.pathname).toBe('/auth/new-password');
    expect(screen.getByRole('heading', { name: 'Create New Password' })).toBeTruthy();
    expect(password.getAttribute('autocomplete')).toBe('new-password');
    await userEvent.type(password, 'New-Passw0rd!');
    expect(await screen.findByText('Your password is strong')).toBeTruthy();
  });

  it("shows the spec's message for an empty password and the first unmet rule for a weak one, sending nothing", async () => {
    const server = fakeServer(loginRoutes({ 'POST auth/login': fixture(FLOW, 'login-new-password-required') }));
    await logIn();
    await screen.findByLabelText('New password');
    await userEvent.click(screen.getByRole('button', { name: 'Save password' }));
    expect(await screen.findByText('Please enter your new password')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('New password'), 'newpassw0rd');
    await userEvent.click(screen.getByRole('button', { name: 'Save password' }));
    expect(await screen.findByText('at least one UPPERCASE letter', { selector: '.field-errors li' })).toBeTruthy();
    expect(server.requests.filter((request) => request.path === 'auth/password')).toEqual([]);
  });

  it('posts the password encrypted to auth/password and follows redirect_to', async () => {
    const server = fakeServer(
      loginRoutes({
        'POST auth/login': fixture(FLOW, 'login-new-password-required'),
        'POST auth/password': fixture(FLOW, 'auth-password-success'),
      }),
    );
    await logIn();
    await userEvent.type(await screen.findByLabelText('New password'), 'New-Passw0rd!');
    await userEvent.click(screen.getByRole('button', { name: 'Save password' }));
    await waitFor(() => expect(leaveTo).toHaveBeenCalledWith('http://localhost/oidc/auth/uid-7'));
    expect(document.title).toBe('Authenticate');

    const sent = server.requests.filter((request) => request.path === 'auth/password');
    expect(sent).toHaveLength(1);
    const body = sent[0]?.body as { password: string };
    expect(Object.keys(body)).toEqual(['password']);
    expect(await decryptField(body.password, key.privateKey)).toEqual({ v: 'New-Passw0rd!', n: 'nonce-1' });
  });

  it("shows the server's refusal of the password on the password field, marked invalid and focused, until it is changed", async () => {
    fakeServer(loginRoutes({ 'POST auth/login': fixture(FLOW, 'login-new-password-required'), 'POST auth/password': fixture(FLOW, 'auth-password-weak-password') }));
    await logIn();
    const field = await screen.findByLabelText('New password');
    await userEvent.type(field, 'New-Passw0rd!');
    await userEvent.click(screen.getByRole('button', { name: 'Save password' }));
    // The server's reason (password.rule.special) in the catalogue's words, on the field rather than above the form.
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    const described = (field.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '');
    expect(described.join(' ')).toMatch(/special character/);
    expect(document.activeElement).toBe(field);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(document.title).toBe('New Password');
    await userEvent.type(field, '#');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBeNull());
  });
});
