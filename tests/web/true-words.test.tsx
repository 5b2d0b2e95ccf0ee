/**
 * Words that must be true where they show: the client line worded per step (and absent where no sign-in is under
 * way), the invited user's headline, and tab titles in the language of the page.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { localTitle, titlePartKey } from '../../src/services/document-title.ts';
import { loadLanguage } from '../../src/services/languages.ts';
import { fakeServer, type FakeRoutes } from './support/fake-server.ts';
import { renderAppAt } from './support/render-app.tsx';

const SIGN_IN = '?client_id=merchant-portal&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=s1&interaction=int-1';
const ROOT = join(import.meta.dirname, '..', '..');

afterEach(async () => {
  cleanup();
  localStorage.removeItem('sso.language');
  await loadLanguage('en');
});

function routes(overrides: FakeRoutes = {}): FakeRoutes {
  return {
    'GET clients/merchant-portal': { body: { client_id: 'merchant-portal', name: 'Merchant Portal' } },
    'GET authorize': { body: { challenge: 'LOGIN_REQUIRED', parameters: { client_id: 'merchant-portal', client_name: 'Merchant Portal' } } },
    ...overrides,
  };
}

describe('the client line', () => {
  it('says "Signing in to" the app on the login step', async () => {
    fakeServer(routes());
    renderAppAt(`/auth/login${SIGN_IN}`);
    expect(await screen.findByText('Signing in to Merchant Portal')).toBeTruthy();
  });

  it('says "Creating an account for" the app on register, never "Signing in to"', async () => {
    fakeServer(routes());
    renderAppAt(`/auth/register${SIGN_IN}`);
    await screen.findByRole('heading', { name: 'Welcome! Create your account' });
    expect(await screen.findByText('Creating an account for Merchant Portal')).toBeTruthy();
    expect(screen.queryByText(/Signing in to/)).toBeNull();
  });

  it('is absent from the terms and from error screens', async () => {
    fakeServer(routes());
    renderAppAt(`/auth/terms-conditions${SIGN_IN}`);
    await screen.findByRole('heading', { name: 'Terms and Conditions' });
    expect(screen.queryByText(/Merchant Portal/)).toBeNull();
    cleanup();
    fakeServer(routes({ 'GET authorize': { status: 400, body: { error_code: 'client.redirect_uri_mismatch', error_message: 'mismatch' } } }));
    renderAppAt(`/auth/login${SIGN_IN}`);
    await screen.findByRole('alert');
    await waitFor(() => expect(document.title).toBe('Error'));
    expect(screen.queryByText(/Merchant Portal/)).toBeNull();
  });
});

describe('the invited user', () => {
  it('is asked to "Create your password" under the spec\'s route title "Create New Password"', async () => {
    fakeServer(routes({ 'GET authorize': { body: { challenge: 'NEW_PASSWORD_REQUIRED', parameters: { invitation: true, email: 'new@example.com', client_name: 'Merchant Portal' } } } }));
    renderAppAt(`/auth/login${SIGN_IN}`);
    expect(await screen.findByRole('heading', { name: 'Create your password' })).toBeTruthy();
    expect(document.title).toBe('Create New Password');
    expect(screen.queryByRole('heading', { name: 'Create New Password' })).toBeNull();
  });
});

describe('tab titles', () => {
  it('follow the language the page is shown in, also after switching it', async () => {
    fakeServer(routes());
    renderAppAt(`/auth/login${SIGN_IN}`);
    await waitFor(() => expect(document.title).toBe('Log In'));
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Language' }), 'de');
    await waitFor(() => expect(document.title).toBe('Anmelden'));
  });

  it('word each part of a title and the legacy prefix', async () => {
    await loadLanguage('de');
    expect(localTitle('Register | Job Details')).toBe('Registrieren | Angaben zur Tätigkeit');
    expect(localTitle('Old Log In')).toBe('Alt: Anmelden');
  });

  it('have words for every part of every route title in every language of the titles word set, the English ones as the spec writes them', () => {
    const table = JSON.parse(readFileSync(join(ROOT, 'flows/shell/routes.json'), 'utf8')) as { routes: Array<{ title: string }>; legacy: Array<{ title: string }> };
    const parts = new Set([...table.routes, ...table.legacy].flatMap(({ title }) => title.replace(/^Old /, '').split(' | ')));
    for (const language of ['en', 'de']) {
      const catalogue = JSON.parse(readFileSync(join(ROOT, `flows/messages/titles/${language}.json`), 'utf8')) as Record<string, string>;
      for (const part of parts) {
        expect(catalogue[titlePartKey(part)], `${language}: ${part}`).toBeTruthy();
        if (language === 'en') expect(catalogue[titlePartKey(part)]).toBe(part);
      }
    }
  });
});
