/**
 * The passkey screens as the engine renders them from flows/passkeys.json, against a fake API: a browser without
 * WebAuthn, and a prompt the person closes, each get a clear message and the other ways; nothing is sent.
 */
import { cleanup, screen } from '@testing-library/react';
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
