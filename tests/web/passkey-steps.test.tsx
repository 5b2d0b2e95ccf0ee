/**
 * The passkey screens as the engine renders them from flows/passkeys.json, against a fake API: a browser without
 * WebAuthn, and a prompt the person closes, each get a clear message and the other ways; nothing is sent. The
 * passkey second factor offers "Don't ask for a passkey on this device", which goes with the passkey's answer.
 */
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeServer, type FakeRoutes } from './support/fake-server.ts';
import { renderAppAt } from './support/render-app.tsx';

const SIGN_IN = '?client_id=merchant-portal&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=s1&interaction=int-1';
const OPTIONS = { challenge: 'c2lnbi1pbi1jaGFsbGVuZ2U', rpId: 'localhost', allowCredentials: [], userVerification: 'required', timeout: 300000 };

function routes(): FakeRoutes {
  return {
    'GET clients/merchant-portal': { body: { client_id: 'merchant-portal', name: 'Merchant Portal' } },
    'GET auth/passkey/options': { body: { challenge: 'PASSKEY_SIGN_IN', parameters: { passkey: { ceremony: 'get', options: OPTIONS } } } },
  };
}

const browser = globalThis as { PublicKeyCredential?: unknown };
const originalCredentials = Object.getOwnPropertyDescriptor(navigator, 'credentials');

afterEach(() => {
  cleanup();
  delete browser.PublicKeyCredential;
  if (originalCredentials) Object.defineProperty(navigator, 'credentials', originalCredentials);
  else delete (navigator as { credentials?: unknown }).credentials;
});

describe('signing in with a passkey', () => {
  it('says a browser without WebAuthn cannot use passkeys, and offers the password instead', async () => {
    const server = fakeServer(routes());
    renderAppAt(`/auth/login/passkey${SIGN_IN}`);
    expect(await screen.findByText("This browser can't use passkeys. Choose another way to sign in.")).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in with your password instead' })).toBeTruthy();
    expect(server.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('says so when the person closes the prompt, sends nothing, and lets them try again or use the password', async () => {
    browser.PublicKeyCredential = function PublicKeyCredential() {};
    Object.defineProperty(navigator, 'credentials', {
      configurable: true,
      value: { get: () => Promise.reject(new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError')) },
    });
    const server = fakeServer(routes());
    renderAppAt(`/auth/login/passkey${SIGN_IN}`);
    expect(await screen.findByText('The passkey request was cancelled or timed out. Try again, or choose another way.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Use a passkey' })).toHaveProperty('disabled', false);
    expect(screen.getByRole('link', { name: 'Sign in with your password instead' })).toBeTruthy();
    expect(server.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });
});

/** A browser whose passkey prompt answers at once with a made-up assertion; counts the prompts. */
function browserWithPasskey(): { prompts: () => number } {
  let prompts = 0;
  const bytes = (text: string) => new TextEncoder().encode(text).buffer;
  browser.PublicKeyCredential = function PublicKeyCredential() {};
  Object.defineProperty(navigator, 'credentials', {
    configurable: true,
    value: {
      get: () => {
        prompts += 1;
        return Promise.resolve({
          id: 'a2V5LTE',
          rawId: bytes('key-1'),
          type: 'public-key',
          authenticatorAttachment: 'platform',
          getClientExtensionResults: () => ({}),
          response: { clientDataJSON: bytes('{}'), authenticatorData: bytes('data'), signature: bytes('signature'), userHandle: bytes('user') },
        });
      },
    },
  });
  return { prompts: () => prompts };
}

describe('the passkey as the second factor', () => {
  const TRUST = "Don't ask for a passkey on this device for 30 days";

  function factorRoutes(hint: Record<string, unknown>): FakeRoutes {
    return {
      'GET clients/merchant-portal': { body: { client_id: 'merchant-portal', name: 'Merchant Portal' } },
      'GET auth/mfa/passkey': { body: { challenge: 'PASSKEY_MFA', parameters: { passkey: { ceremony: 'get', options: OPTIONS }, ...hint } } },
      'POST auth/mfa/passkey': { body: { redirect_to: 'https://app.example/cb?code=abc&state=s1' } },
    };
  }

  it('offers "Don\'t ask for a passkey on this device for 30 days", off, before the prompt, and sends it with the passkey', async () => {
    const passkey = browserWithPasskey();
    const server = fakeServer(factorRoutes({}));
    renderAppAt(`/auth/mfa/passkey${SIGN_IN}`);
    const checkbox = await screen.findByRole('checkbox', { name: TRUST });
    expect(checkbox).toHaveProperty('checked', false);
    // Settled before the button that sends it, as on any form.
    expect(checkbox.compareDocumentPosition(screen.getByRole('button', { name: 'Use a passkey' })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(passkey.prompts()).toBe(0);
    await userEvent.click(checkbox);
    await userEvent.click(screen.getByRole('button', { name: 'Use a passkey' }));
    await waitFor(() => expect(server.requests.map((request) => request.path)).toContain('auth/mfa/passkey'));
    const sent = server.requests.find((request) => request.method === 'POST' && request.path === 'auth/mfa/passkey')?.body as Record<string, unknown>;
    expect(sent).toMatchObject({ trustDevice: true, credential: { id: 'a2V5LTE', type: 'public-key' } });
  });

  it("hides it under a client's shared-device hint and sends the passkey without it", async () => {
    browserWithPasskey();
    const server = fakeServer(factorRoutes({ shared_device: true }));
    renderAppAt(`/auth/mfa/passkey${SIGN_IN}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Use a passkey' }));
    expect(screen.queryByRole('checkbox', { name: TRUST })).toBeNull();
    await waitFor(() => expect(server.requests.map((request) => request.path)).toContain('auth/mfa/passkey'));
    const sent = server.requests.find((request) => request.method === 'POST' && request.path === 'auth/mfa/passkey')?.body as Record<string, unknown>;
    expect(sent).not.toHaveProperty('trustDevice');
    expect(sent).toHaveProperty('credential');
  });
});

describe('a server that can have no passkeys (PUBLIC_URL on an IP address)', () => {
  it('offers no "Sign in with a passkey" on the login screen', async () => {
    fakeServer({ ...routes(), 'GET authorize': { body: { challenge: 'LOGIN_REQUIRED', parameters: { client_id: 'merchant-portal', passkeys: false } } } });
    renderAppAt(`/auth/login${SIGN_IN}`);
    expect(await screen.findByRole('link', { name: 'Forgot password?' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Sign in with a passkey' })).toBeNull();
  });
});
