/**
 * The terms page returns to the form it was opened from: in the tab the form's link opened, "Close this tab" closes
 * it (the form's own tab is still there, as it was); reached in the form's own tab, "Back to registration" goes Back
 * to that form rather than starting a second sign-up.
 */
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer } from './support/fake-server.ts';
import { renderAppAt } from './support/render-app.tsx';

const tab = vi.hoisted(() => ({ onlyPage: true, closeTab: vi.fn(), goBack: vi.fn() }));
vi.mock('../../src/ui/tab-return.ts', () => ({ isOnlyPageOfTab: () => tab.onlyPage, closeTab: tab.closeTab, goBack: tab.goBack }));

const SIGN_IN = '?client_id=merchant-portal&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=s1&interaction=int-1';
const TERMS = 'These terms apply to your use of the service.\n\n1. Your account.';

beforeEach(() => {
  tab.closeTab.mockClear();
  tab.goBack.mockClear();
  vi.stubGlobal('fetch', vi.fn(async () => new Response(TERMS, { status: 200, headers: { 'content-type': 'text/plain' } })));
});

describe('the terms page', () => {
  it('opened in its own tab by the form, offers "Close this tab", which closes it and says the form is in the other tab', async () => {
    tab.onlyPage = true;
    renderAppAt(`/auth/terms-conditions${SIGN_IN}`);
    expect(await screen.findByText('These terms apply to your use of the service.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Back to registration' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Close this tab' }));
    expect(tab.closeTab).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('status').textContent).toBe('Your form is still open in the tab you came from. If this tab stays open, close it yourself.');
    expect(window.location.pathname).toBe('/auth/terms-conditions');
  });

  it('reached in the form\'s own tab, goes Back to that form instead of opening a new registration', async () => {
    tab.onlyPage = false;
    renderAppAt(`/auth/terms-conditions${SIGN_IN}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Back to registration' }));
    await waitFor(() => expect(tab.goBack).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('button', { name: 'Close this tab' })).toBeNull();
    expect(window.location.pathname).toBe('/auth/terms-conditions');
  });
});

describe('the register form, left for the terms in its own tab', () => {
  it('finds what was typed when the tab comes Back, never the password', async () => {
    const routes = {
      'GET clients/merchant-portal': { body: { client_id: 'merchant-portal', name: 'Merchant Portal' } },
      'GET authorize': { body: { challenge: 'LOGIN_REQUIRED', parameters: { client_id: 'merchant-portal', client_name: 'Merchant Portal' } } },
    };
    fakeServer(routes);
    renderAppAt(`/auth/register${SIGN_IN}`);
    await userEvent.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('First name'), 'Ada');
    await userEvent.type(screen.getByLabelText('Password'), 'Quartz-Lantern-42!');
    await userEvent.click(screen.getByLabelText('I accept the Terms and Conditions'));
    // The page is left (the terms open in this tab), then Back loads the form again.
    cleanup();
    fakeServer(routes);
    renderAppAt(`/auth/register${SIGN_IN}`);
    expect(((await screen.findByLabelText('Email')) as HTMLInputElement).value).toBe('ada@example.com');
    expect((screen.getByLabelText('First name') as HTMLInputElement).value).toBe('Ada');
    expect((screen.getByLabelText('I accept the Terms and Conditions') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('');
    expect(sessionStorage.getItem('sso.drafts')).not.toContain('Quartz');
  });
});
