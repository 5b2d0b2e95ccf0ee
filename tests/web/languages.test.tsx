/**
 * The second language: picking it from the browser or a stored choice, switching it from the
 * footer, loading its catalogue on demand, and wording server errors in it.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ERROR_CODES } from '../../contract/error-codes.ts';
import { apiErrorText } from '../../src/services/api-error-text.ts';
import { languages, loadLanguage, pickLanguage } from '../../src/services/languages.ts';
import { activateCatalogue, currentLanguage, t } from '../../src/services/messages.ts';
import { startLanguage } from '../../src/ui/language-preference.ts';
import { fakeServer } from './support/fake-server.ts';
import { renderAppAt } from './support/render-app.tsx';

afterEach(async () => {
  await loadLanguage('en');
  document.documentElement.lang = 'en';
});

describe('pickLanguage', () => {
  it.each([
    { preferred: ['de-DE', 'en'], picked: 'de' },
    { preferred: ['fr-FR', 'de'], picked: 'de' },
    { preferred: ['fr', 'it'], picked: 'en' },
    { preferred: [null, 'de-AT'], picked: 'de' },
    { preferred: ['en-GB', 'de'], picked: 'en' },
    { preferred: ['DE'], picked: 'de' },
    { preferred: [], picked: 'en' },
  ])('picks $picked from $preferred', ({ preferred, picked }) => {
    expect(pickLanguage(preferred)).toBe(picked);
  });
});

describe('loadLanguage', () => {
  it('offers English first, then every other catalogue in flows/messages/', () => {
    const files = readdirSync(join(import.meta.dirname, '..', '..', 'flows', 'messages')).filter((name) => name.endsWith('.json'));
    const others = files.map((name) => name.replace(/\.json$/, '')).filter((language) => language !== 'en').sort();
    expect(languages).toEqual(['en', ...others]);
  });

  it('switches the texts to German and back', async () => {
    await loadLanguage('de');
    expect([currentLanguage(), t('login.submit')]).toEqual(['de', 'Anmelden']);
    await loadLanguage('en');
    expect([currentLanguage(), t('login.submit')]).toEqual(['en', 'Log In']);
  });

  it('keeps the current language for one it has no catalogue for', async () => {
    await loadLanguage('xx');
    expect(currentLanguage()).toBe('en');
  });

  it('lets the last choice win when a slower catalogue arrives after it', async () => {
    const german = loadLanguage('de');
    await loadLanguage('en');
    await german;
    expect(currentLanguage()).toBe('en');
  });

  it('falls back to English for a key the catalogue lacks', () => {
    activateCatalogue('de', {});
    expect(t('login.submit')).toBe('Log In');
  });
});

describe('apiErrorText', () => {
  const newPasswordMissing = { reason: 'validation.newPassword.required' };
  it.each([
    { language: 'de', message: 'Incorrect email or password.', code: 'auth.invalid_credentials', params: undefined, shown: 'E-Mail-Adresse oder Passwort ist falsch.' },
    { language: 'en', message: 'Incorrect email or password.', code: 'auth.invalid_credentials', params: undefined, shown: 'Incorrect email or password.' },
    { language: 'de', message: 'Please enter your new password', code: 'request.invalid', params: newPasswordMissing, shown: 'Bitte geben Sie Ihr neues Passwort ein' },
    { language: 'en', message: 'Please enter your new password', code: 'request.invalid', params: newPasswordMissing, shown: 'Please enter your new password' },
    { language: 'de', message: 'The request is not valid: body must be object.', code: 'request.invalid', params: undefined, shown: 'Die Anfrage ist ungültig.' },
    { language: 'de', message: 'Something odd', code: 'no.such_code', params: undefined, shown: 'Something odd' },
    { language: 'de', message: 'Failed to fetch', code: undefined, params: undefined, shown: 'Failed to fetch' },
  ])('shows "$shown" for $code in $language', async ({ language, message, code, params, shown }) => {
    await loadLanguage(language);
    expect(apiErrorText(message, code, params)).toBe(shown);
  });

  it.each(['en', 'de'])("words every code of the contract from the %s catalogue, whatever English the server sent", async (language) => {
    await loadLanguage(language);
    for (const code of Object.keys(ERROR_CODES)) {
      expect(apiErrorText('words the web app never compares', code)).toBe(t(`apiError.${code}`));
    }
  });
});

describe('startLanguage', () => {
  it("uses the browser's languages when nothing is stored", async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['de-CH', 'en']);
    await startLanguage();
    expect([currentLanguage(), document.documentElement.lang]).toEqual(['de', 'de']);
  });

  it("prefers the stored choice to the browser's languages", async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['de-DE']);
    localStorage.setItem('sso.language', 'en');
    await startLanguage();
    expect(currentLanguage()).toBe('en');
  });
});

describe('the language picker', () => {
  const routes = { 'GET authorize': { body: { challenge: 'LOGIN_REQUIRED' } } };

  it('sits in the footer, labelled, listing each language in its own name', async () => {
    fakeServer(routes);
    renderAppAt('/auth/login?client_id=sso-account');
    const picker = await screen.findByRole('combobox', { name: 'Language' });
    expect(picker.closest('footer')).not.toBeNull();
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(expect.arrayContaining(['English', 'Deutsch']));
  });

  it('re-renders the step in German, sets <html lang> and remembers the choice', async () => {
    fakeServer(routes);
    renderAppAt('/auth/login?client_id=sso-account');
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Language' }), 'de');
    expect(await screen.findByRole('heading', { name: 'Melden Sie sich an, um fortzufahren' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Anmelden' })).toBeTruthy();
    expect(screen.getByLabelText('E-Mail')).toBeTruthy();
    expect(screen.getByLabelText('Passwort')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Passwort anzeigen' })).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Sprache' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('de');
    expect(localStorage.getItem('sso.language')).toBe('de');
  });

  it('re-words the choices the server offered, such as the second-factor methods, when the user switches language', async () => {
    fakeServer({
      'GET clients/sso-account': { body: { client_id: 'sso-account', name: 'Account Area' } },
      'GET auth/mfa/selection': { body: { challenge: 'MFA_SETUP', parameters: { availableChoices: [{ type: 'email', destination: 'd•••@example.com' }, { type: 'sms' }, { type: 'totp' }] } } },
    });
    renderAppAt('/auth/mfa/select-mfa?client_id=sso-account&interaction=int-1');
    expect(await screen.findByRole('radio', { name: 'Email, to d•••@example.com' })).toBeTruthy();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'de');
    expect(await screen.findByRole('radio', { name: 'E-Mail, an d•••@example.com' })).toBeTruthy();
    expect(screen.getAllByRole('radio').map((radio) => radio.getAttribute('aria-label') ?? radio.closest('label')?.textContent)).toEqual([
      'E-Mail, an d•••@example.com',
      'SMS an Ihr Mobiltelefon',
      'Authenticator-App',
    ]);
  });

  it('re-words the field errors a submit showed when the user then switches language, and leaves the focus on the picker', async () => {
    fakeServer(routes);
    renderAppAt('/auth/login?client_id=sso-account');
    await userEvent.click(await screen.findByRole('button', { name: 'Log In' }));
    expect(await screen.findByText('Please enter your password')).toBeTruthy();
    const picker = screen.getByRole('combobox', { name: 'Language' });
    await userEvent.selectOptions(picker, 'de');
    expect(await screen.findByText('Bitte geben Sie Ihr Passwort ein')).toBeTruthy();
    expect(screen.queryByText('Please enter your password')).toBeNull();
    expect(screen.queryByText(/^Please enter your email address/)).toBeNull();
    expect(document.activeElement).toBe(picker);
  });

  it.each([
    { language: 'en', shown: 'Too many wrong codes. For your security, wait a while before asking for a new code.' },
    { language: 'de', shown: 'Zu viele falsche Codes. Warten Sie aus Sicherheitsgründen eine Weile, bevor Sie einen neuen Code anfordern.' },
  ])('shows a server error by its code in $language, even when the server words it otherwise', async ({ language, shown }) => {
    fakeServer({ 'POST password/reset': { status: 429, body: { error_code: 'code.too_many_attempts', error_message: 'Slow down.' } } });
    await loadLanguage(language);
    renderAppAt('/auth/forgot-password');
    await userEvent.type(await screen.findByLabelText(t('field.email.label')), 'someone@example.com');
    await userEvent.click(screen.getByRole('button', { name: t('forgot.submit') }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(shown));
  });

  it.each(['en', 'de'])('falls back to the generic message in %s for an error code it does not know, sent without words', async (language) => {
    fakeServer({ 'POST password/reset': { status: 500, body: { error_code: 'no.such_code' } } });
    await loadLanguage(language);
    renderAppAt('/auth/forgot-password');
    await userEvent.type(await screen.findByLabelText(t('field.email.label')), 'someone@example.com');
    await userEvent.click(screen.getByRole('button', { name: t('forgot.submit') }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(t('apiError.server.error')));
  });

  it("shows a server error in German when the server sent the code's standard wording", async () => {
    fakeServer({ 'POST password/reset': { status: 429, body: { error_code: 'code.too_many_attempts', error_message: 'Too many wrong codes. For your security, wait a while before asking for a new code.' } } });
    await loadLanguage('de');
    renderAppAt('/auth/forgot-password');
    await userEvent.type(await screen.findByLabelText('E-Mail'), 'someone@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Code senden' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Zu viele falsche Codes. Warten Sie aus Sicherheitsgründen eine Weile, bevor Sie einen neuen Code anfordern.'));
  });
});
