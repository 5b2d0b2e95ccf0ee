/**
 * The login screen as a user meets it: rendered by the generic StepView from flows/login.json,
 * talking to a fake API.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { compactDecrypt, exportJWK, generateKeyPair } from 'jose';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fakeServer, type FakeRoutes } from './support/fake-server.ts';
import { renderAppAt } from './support/render-app.tsx';

vi.mock('../../src/ui/browser-navigation.ts', () => ({ leaveTo: vi.fn() }));
const { leaveTo } = await import('../../src/ui/browser-navigation.ts');

const EMAIL_REQUIRED = "Please enter your email address e.g, 'name@example.com'";
const EMAIL_INVALID = "Please enter valid email address. e.g 'name@example.com'";
const PASSWORD_REQUIRED = 'Please enter your password';

let keys: CryptoKeyPair;
let credentialKey: { kid: string; jwk: object; nonce: string };

beforeAll(async () => {
  keys = await generateKeyPair('RSA-OAEP-256', { extractable: true });
  credentialKey = { kid: 'test-key', jwk: { ...(await exportJWK(keys.publicKey)), alg: 'RSA-OAEP-256' }, nonce: 'nonce-1' };
});

/** The login screen's API: the client is known and the server wants a login. */
function loginRoutes(overrides: FakeRoutes = {}): FakeRoutes {
  return {
    'GET authorize': { body: { challenge: 'LOGIN_REQUIRED', parameters: { client_name: 'Merchant Portal' } } },
    'GET clients/merchant-portal': { body: { client_id: 'merchant-portal', name: 'Merchant Portal' } },
    'GET crypto/rsa-public-key': () => ({ body: credentialKey }),
    ...overrides,
  };
}

async function openLogin(query = '?client_id=merchant-portal&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=s1') {
  renderAppAt(`/auth/login${query}`);
  return screen.findByLabelText('Email');
}

describe('login step', () => {
  it('sets the document title to "Log In" and renders the headline and client line', async () => {
    fakeServer(loginRoutes());
    await openLogin();
    expect(document.title).toBe('Log In');
    expect(screen.getByRole('heading', { name: 'Log in to proceed' })).toBeTruthy();
    expect(await screen.findByText('Signing in to Merchant Portal')).toBeTruthy();
  });

  it('renders email and password fields with the autocomplete and input types password managers expect', async () => {
    fakeServer(loginRoutes());
    const email = await openLogin();
    const password = screen.getByLabelText('Password');
    expect(email.getAttribute('type')).toBe('email');
    expect(email.getAttribute('inputmode')).toBe('email');
    expect(email.getAttribute('autocomplete')).toBe('username webauthn');
    expect(password.getAttribute('type')).toBe('password');
    expect(password.getAttribute('autocomplete')).toBe('current-password');
    expect(screen.getByRole('button', { name: 'Log In' })).toBeTruthy();
  });

  it('runs the init call with the page query values', async () => {
    const server = fakeServer(loginRoutes());
    await openLogin();
    const authorize = server.requests.find((request) => request.path === 'authorize');
    expect(authorize?.query.get('client_id')).toBe('merchant-portal');
    expect(authorize?.query.get('redirect_uri')).toBe('https://app.example/cb');
    expect(authorize?.query.get('state')).toBe('s1');
  });

  it('shows the exact spec messages for empty fields only after submit', async () => {
    fakeServer(loginRoutes());
    await openLogin();
    expect(screen.queryByText(EMAIL_REQUIRED)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText(EMAIL_REQUIRED)).toBeTruthy();
    expect(screen.getByText(PASSWORD_REQUIRED)).toBeTruthy();
    const email = screen.getByLabelText('Email');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    const describedBy = email.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(describedBy)?.textContent).toBe(EMAIL_REQUIRED);
  });

  it('shows the invalid-email message for a malformed address', async () => {
    fakeServer(loginRoutes());
    const email = await openLogin();
    await userEvent.type(email, 'not-an-email');
    await userEvent.type(screen.getByLabelText('Password'), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText(EMAIL_INVALID)).toBeTruthy();
    expect(screen.queryByText(PASSWORD_REQUIRED)).toBeNull();
  });

  it('prefills the email from ?username=', async () => {
    fakeServer(loginRoutes());
    const email = await openLogin('?client_id=merchant-portal&username=ada%40example.com');
    expect((email as HTMLInputElement).value).toBe('ada@example.com');
  });

  it('toggles password visibility with an accessible button', async () => {
    fakeServer(loginRoutes());
    await openLogin();
    const password = screen.getByLabelText('Password');
    await userEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password.getAttribute('type')).toBe('text');
    await userEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password.getAttribute('type')).toBe('password');
  });

  it("shows the server's error_message in an alert after a failed submit and fires the error event", async () => {
    const dataLayer: Array<Record<string, unknown>> = [];
    vi.stubGlobal('dataLayer', dataLayer);
    fakeServer(
      loginRoutes({
        'POST auth/login': { status: 401, body: { error_code: 'auth.invalid_credentials', error_message: 'Incorrect email or password.' } },
      }),
    );
    const email = await openLogin();
    await userEvent.type(email, 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong-password');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Incorrect email or password.');
    expect(document.title).toBe('Log In');
    expect(dataLayer).toContainEqual({ event: 'login_error_response' });
  });

  it('tells a throttled sign-in how many minutes to wait and keeps the reset-password link beside it', async () => {
    fakeServer(
      loginRoutes({
        'POST auth/login': {
          status: 429,
          body: {
            error_code: 'auth.too_many_attempts',
            error_message: 'Too many attempts. Try again in 3 minutes, or reset your password.',
            error_params: { minutes: '3' },
          },
        },
      }),
    );
    const email = await openLogin();
    await userEvent.type(email, 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'Right-Passw0rd!');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Too many attempts. Try again in 3 minutes, or reset your password.');
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toContain('/auth/forgot-password');
  });

  it('sends the password encrypted to the fetched key and follows redirect_to on success', async () => {
    const server = fakeServer(
      loginRoutes({ 'POST auth/login': { body: { redirect_to: 'http://localhost/oidc/auth/uid-1' } } }),
    );
    const email = await openLogin();
    await userEvent.type(email, 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(leaveTo).toHaveBeenCalledWith('http://localhost/oidc/auth/uid-1'));
    expect(document.title).toBe('Authenticate');
    expect(window.location.pathname).toBe('/auth/redirect');
    expect(new URLSearchParams(window.location.search).get('client_id')).toBe('merchant-portal');

    const login = server.requests.find((request) => request.path === 'auth/login');
    const body = login?.body as { email: string; password: string };
    expect(body.email).toBe('ada@example.com');
    const { plaintext } = await compactDecrypt(body.password, keys.privateKey);
    expect(JSON.parse(new TextDecoder().decode(plaintext))).toEqual({ v: 'correct horse', n: 'nonce-1' });
  });

  it('navigates straight on when the init call answers with redirect_to', async () => {
    fakeServer(loginRoutes({ 'GET authorize': { body: { redirect_to: '/oidc/auth?client_id=merchant-portal' } } }));
    renderAppAt('/auth/login?client_id=merchant-portal');
    const expected = new URL('/oidc/auth?client_id=merchant-portal', window.location.href).href;
    await waitFor(() => expect(leaveTo).toHaveBeenCalledWith(expected));
    expect(document.title).toBe('Authenticate');
  });

  it("shows the error step with the server's message when the init call fails, never redirects, and offers no retry that would fail the same way", async () => {
    vi.mocked(leaveTo).mockClear();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    fakeServer(loginRoutes({ 'GET authorize': { status: 400, body: { error_code: 'client.unknown', error_message: 'The app that sent you here is not registered.' } } }));
    renderAppAt('/auth/login?client_id=nope');
    expect((await screen.findByRole('alert')).textContent).toBe('The app that sent you here is not registered.');
    expect(document.title).toBe('Error');
    // The same link would fail the same way: no "Try again" that loops, the help link is the way on.
    expect(screen.queryByRole('link', { name: 'Try again' })).toBeNull();
    expect(screen.getByRole('link', { name: "Can't Log In or Register?" })).toBeTruthy();
    expect(leaveTo).not.toHaveBeenCalled();
    // The client lookup failed too: no client line, just a warning in the console.
    await waitFor(() => expect(warn).toHaveBeenCalled());
    expect(screen.queryByText(/Signing in to/)).toBeNull();
  });
});
