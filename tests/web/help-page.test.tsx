/**
 * The help behind "Can't Log In or Register?": every screen's link opens /auth/help in a tab of its own, and the
 * built-in page there says what to do about a lost phone, a locked account, a code that does not arrive and a
 * changed email address, in the page's language.
 */
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { loadLanguage } from '../../src/services/languages.ts';
import { fakeServer } from './support/fake-server.ts';
import { renderAppAt } from './support/render-app.tsx';

afterEach(async () => {
  cleanup();
  await loadLanguage('en');
});

describe('the help link', () => {
  it('opens the help page at /auth/help in a new tab, not a placeholder site', async () => {
    fakeServer({ 'GET authorize': { body: { challenge: 'LOGIN_REQUIRED' } } });
    renderAppAt('/auth/login?client_id=merchant-portal');
    const link = await screen.findByRole('link', { name: "Can't Log In or Register?" });
    expect(link.getAttribute('href')).toBe('/auth/help');
    expect(link.getAttribute('target')).toBe('_blank');
  });
});

describe('the built-in help page', () => {
  it('covers a lost phone, a locked account, a code that does not arrive and a changed email, each with what to do', async () => {
    fakeServer({});
    renderAppAt('/auth/help');
    expect(await screen.findByRole('heading', { level: 1, name: "Can't log in or register?" })).toBeTruthy();
    expect(document.title).toBe('Help');
    const topic = (name: string) => within(screen.getByRole('heading', { level: 2, name }).closest('section') as HTMLElement).getByText(/./, { selector: 'p' }).textContent ?? '';
    expect(topic('I lost my phone or my authenticator app')).toContain('recovery code');
    expect(topic('My account is locked')).toContain('reset your password');
    expect(topic('My code does not arrive')).toContain('spam');
    expect(topic('My email address changed')).toContain('ask support');
    expect(topic('Still stuck?')).toContain('Contact the support team');
    expect(screen.getByRole('link', { name: 'Reset your password' }).getAttribute('href')).toMatch(/^\/auth\/forgot-password/);
    expect(screen.getByRole('link', { name: 'Back to log in' }).getAttribute('href')).toMatch(/^\/auth\/login/);
    expect(screen.queryByRole('link', { name: 'Try again' })).toBeNull();
  });

  it('speaks German when the page does', async () => {
    await loadLanguage('de');
    fakeServer({});
    renderAppAt('/auth/help');
    expect(await screen.findByRole('heading', { level: 2, name: 'Mein Code kommt nicht an' })).toBeTruthy();
    expect(document.title).toBe('Hilfe');
  });
});
