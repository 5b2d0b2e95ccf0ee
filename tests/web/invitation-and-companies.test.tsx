/**
 * The invitation screens (set a password, an expired link) and the company picker, rendered from the flows
 * with a fake server.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestCredentialKey, type TestCredentialKey } from './support/credential-key.ts';
import { fakeServer } from './support/fake-server.ts';
import { renderAppAt } from './support/render-app.tsx';

vi.mock('../../src/ui/browser-navigation.ts', () => ({ leaveTo: vi.fn() }));

const SIGN_IN = '?client_id=merchant-portal&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=s1&interaction=int-1';
const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz0123456789ABCDE';
const events = () => ((globalThis as { dataLayer?: Array<{ event: string }> }).dataLayer ?? []).map((entry) => entry.event);

let key: TestCredentialKey;
beforeAll(async () => {
  key = await createTestCredentialKey();
});
beforeEach(() => {
  (globalThis as { dataLayer?: unknown[] }).dataLayer = [];
});
afterEach(() => {
  delete (globalThis as { dataLayer?: unknown[] }).dataLayer;
});

const client = { 'GET clients/merchant-portal': { body: { client_id: 'merchant-portal', name: 'Merchant Portal' } } };

function companies(count: number) {
  return Array.from({ length: count }, (_, index) => ({ id: `c-${index}`, name: `Company ${String.fromCharCode(65 + index)}` }));
}

describe('an invitation link', () => {
  it('opens "Create New Password" with the invited address, asks for the names and the terms as registration does, and accepts with them', async () => {
    const server = fakeServer({
      ...client,
      'GET authorize': { body: { challenge: 'NEW_PASSWORD_REQUIRED', parameters: { invitation: true, email: 'new@example.com', client_name: 'Merchant Portal' } } },
      'GET crypto/rsa-public-key': () => ({ body: key.answer }),
      'POST invitation/acceptance': { body: { redirect_to: 'https://sso.example/oidc/auth/resume' } },
    });
    renderAppAt(`/auth/login${SIGN_IN}`);
    const password = await screen.findByLabelText('New password');
    expect(document.title).toBe('Create New Password');
    expect(window.location.pathname).toBe('/auth/new-password/invitation');
    expect(screen.getByText('You have been invited as new@example.com. Choose a password to accept the invitation.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Read the Terms and Conditions' }).getAttribute('target')).toBe('_blank');
    await userEvent.type(password, 'Invited-Passw0rd!');
    await userEvent.click(screen.getByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByText('Please accept the Terms and Conditions')).toBeTruthy();
    expect(server.requests.some((request) => request.method === 'POST')).toBe(false);

    await userEvent.type(screen.getByLabelText('First name'), 'Grace');
    await userEvent.type(screen.getByLabelText('Last name'), 'Hopper');
    await userEvent.click(screen.getByLabelText('I accept the Terms and Conditions'));
    await userEvent.click(screen.getByRole('button', { name: 'Accept invitation' }));
    await waitFor(() => expect(events()).toContain('invitation_redirect_to_app'));
    const accepted = server.requests.find((request) => request.method === 'POST' && request.path === 'invitation/acceptance');
    expect(accepted?.body).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', acceptTerms: true });
  });

  it('prefills the names the invited account already has', async () => {
    fakeServer({
      ...client,
      'GET authorize': { body: { challenge: 'NEW_PASSWORD_REQUIRED', parameters: { invitation: true, email: 'known@example.com', given_name: 'Ada', family_name: 'Lovelace' } } },
    });
    renderAppAt(`/auth/login${SIGN_IN}`);
    expect(((await screen.findByLabelText('First name')) as HTMLInputElement).value).toBe('Ada');
    expect((screen.getByLabelText('Last name') as HTMLInputElement).value).toBe('Lovelace');
  });

  it('that expired says so, tracks it, and asks for a fresh one with the link\'s token', async () => {
    const server = fakeServer({
      ...client,
      'GET authorize': { body: { invitation: 'expired' } },
      'POST invitation/renewal': { body: { invitation: 'renewal_requested' } },
    });
    renderAppAt(`/auth/login?invitation=${TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'This invitation can no longer be used' })).toBeTruthy();
    expect(events()).toContain('invitation_login_expired');
    expect(server.requests[0]?.query.get('invitation')).toBe(TOKEN);
    await userEvent.click(await screen.findByRole('button', { name: 'Email me a new invitation' }));
    expect(await screen.findByRole('heading', { name: 'Check your inbox' })).toBeTruthy();
    const renewal = server.requests.find((request) => request.path === 'invitation/renewal');
    expect(renewal?.body).toEqual({ invitation: TOKEN });
    expect(events()).toContain('resent_verification_link');
  });
});

describe('the company picker (MULTIPLE_COMPANIES_REGISTRATION)', () => {
  function pickerServer(list: Array<{ id: string; name: string }>) {
    return fakeServer({
      ...client,
      'GET authorize': { body: { challenge: 'MULTIPLE_COMPANIES_REGISTRATION', parameters: { companies: list, selected: list[0]?.id } } },
      // Entering the company step from the sign-in's entry answer, the step asks for its list itself, as with the real server.
      'GET company-management/companies': { body: { challenge: 'MULTIPLE_COMPANIES_REGISTRATION', parameters: { companies: list, selected: list[0]?.id } } },
      'POST company-management/companies': { body: { redirect_to: 'https://sso.example/oidc/auth/resume' } },
    });
  }

  it('offers three companies as a labelled radio group, the last used chosen, and sends the pick', async () => {
    const server = pickerServer(companies(3));
    renderAppAt(`/auth/login${SIGN_IN}`);
    const group = await screen.findByRole('radiogroup', { name: 'Company' });
    expect(document.title).toBe('Authenticate | Select Company');
    const radios = within(group).getAllByRole('radio');
    expect(radios.map((radio) => radio.closest('label')?.textContent)).toEqual(['Company A', 'Company B', 'Company C']);
    expect((radios[0] as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByRole('searchbox')).toBeNull();
    await userEvent.click(within(group).getByRole('radio', { name: 'Company B' }));
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(server.requests.find((request) => request.method === 'POST')?.body).toEqual({ company: 'c-1' }));
  });

  it('adds a search box once the list is long, and says when nothing matches', async () => {
    pickerServer(companies(12));
    renderAppAt(`/auth/login${SIGN_IN}`);
    const search = await screen.findByRole('searchbox', { name: 'Search companies' });
    await userEvent.type(search, 'company k');
    expect(screen.getAllByRole('radio').map((radio) => radio.closest('label')?.textContent)).toEqual(['Company K']);
    await userEvent.clear(search);
    await userEvent.type(search, 'zzz');
    expect(screen.queryAllByRole('radio')).toHaveLength(0);
    expect(screen.getByRole('status').textContent).toBe('No company matches your search.');
  });
});

describe('searching the company picker', () => {
  function longList() {
    const list = [...companies(10), { id: 'c-globex', name: 'Globex' }, { id: 'c-stark', name: 'Stark Industries' }];
    return fakeServer({
      ...client,
      'GET authorize': { body: { challenge: 'MULTIPLE_COMPANIES_REGISTRATION', parameters: { companies: list, selected: 'c-stark' } } },
      'GET company-management/companies': { body: { challenge: 'MULTIPLE_COMPANIES_REGISTRATION', parameters: { companies: list, selected: 'c-stark' } } },
      'POST company-management/companies': { body: { redirect_to: 'https://sso.example/oidc/auth/resume' } },
    });
  }

  it('puts the focus on the list, on the company used last, though it is not the first', async () => {
    longList();
    renderAppAt(`/auth/login${SIGN_IN}`);
    const stark = await screen.findByRole('radio', { name: 'Stark Industries' });
    await waitFor(() => expect(document.activeElement).toBe(stark));
  });

  it('submits the only company left in view, never the hidden last-used one', async () => {
    const server = longList();
    renderAppAt(`/auth/login${SIGN_IN}`);
    await userEvent.type(await screen.findByRole('searchbox', { name: 'Search companies' }), 'glo');
    expect((screen.getByRole('radio', { name: 'Globex' }) as HTMLInputElement).checked).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(server.requests.find((request) => request.method === 'POST')?.body).toEqual({ company: 'c-globex' }));
  });

  it('asks for a choice when the search hides the chosen company among several matches', async () => {
    const server = longList();
    renderAppAt(`/auth/login${SIGN_IN}`);
    await userEvent.type(await screen.findByRole('searchbox', { name: 'Search companies' }), 'company');
    expect(screen.getAllByRole('radio').every((radio) => !(radio as HTMLInputElement).checked)).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Please choose a company')).toBeTruthy();
    expect(server.requests.some((request) => request.method === 'POST')).toBe(false);
  });
});

describe('a reload of the invitation step', () => {
  it('asks the server again and still shows the invited address', async () => {
    fakeServer({
      ...client,
      'GET authorize': { body: { challenge: 'NEW_PASSWORD_REQUIRED', parameters: { invitation: true, email: 'again@example.com' } } },
    });
    renderAppAt(`/auth/new-password/invitation${SIGN_IN}`);
    expect(await screen.findByText('You have been invited as again@example.com. Choose a password to accept the invitation.')).toBeTruthy();
    expect(document.title).toBe('Create New Password');
  });
});

describe('a reload of the company picker', () => {
  it('asks the server for the list again', async () => {
    const server = fakeServer({
      ...client,
      'GET company-management/companies': { body: { challenge: 'MULTIPLE_COMPANIES_REGISTRATION', parameters: { companies: companies(2), selected: 'c-1' } } },
    });
    renderAppAt(`/auth/company-selection${SIGN_IN}`);
    const group = await screen.findByRole('radiogroup', { name: 'Company' });
    expect((within(group).getByRole('radio', { name: 'Company B' }) as HTMLInputElement).checked).toBe(true);
    expect(server.requests.find((request) => request.path === 'company-management/companies')?.query.has('registration')).toBe(false);
  });
});
