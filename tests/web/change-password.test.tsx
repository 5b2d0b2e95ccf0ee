/**
 * The password-recovery code screen as a user meets it: the code, the new password with its live checklist, the
 * spec's messages, a new code in place, and what is sent. Rendered by the generic StepView from
 * flows/password-recovery.json against a fake API fed with recorded answers.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestCredentialKey, decryptField, type TestCredentialKey } from './support/credential-key.ts';
import { fakeServer } from './support/fake-server.ts';
import { fixture, fixtureNames } from './support/fixtures.ts';
import { confirm, FLOW, openChangePassword, recoveryRoutes, requestTo, SIGN_IN } from './support/password-recovery.ts';
import { renderAppAt } from './support/render-app.tsx';

const CODE_REQUIRED = 'Please enter 6-digit verification code';
const NEW_PASSWORD_REQUIRED = 'Please enter your new password';
const STRONG = 'Your password is strong';

let key: TestCredentialKey;

beforeAll(async () => {
  key = await createTestCredentialKey();
});

/** Each rule of the checklist as "met" or "unmet", by its wording. */
function checklist(): Record<string, string> {
  const rules = screen.getAllByRole('listitem').filter((item) => item.classList.contains('password-rule'));
  return Object.fromEntries(
    rules.map((rule) => [rule.querySelector('.password-rule-text')?.textContent ?? '', rule.dataset.met === 'true' ? 'met' : 'unmet']),
  );
}

describe('change-password step', () => {
  it('is titled "Forgot Password", names the address just typed and keeps the email out of the URL', async () => {
    await openChangePassword(key);
    expect(document.title).toBe('Forgot Password');
    expect(screen.getByText('Enter the 6-digit code we sent to ada@example.com, then choose a new password.')).toBeTruthy();
    const email = document.querySelector<HTMLInputElement>('input[name="email"]');
    expect(email?.hidden).toBe(true);
    expect(email?.value).toBe('ada@example.com');
    expect(email?.getAttribute('autocomplete')).toBe('username');
    expect(window.location.pathname).not.toMatch(/ada/);
  });

  it('offers the code field to one-time-code autofill on a numeric keyboard, and the new password to password managers', async () => {
    await openChangePassword(key);
    const code = screen.getByLabelText('Verification code');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(code.getAttribute('maxlength')).toBeNull();
    const password = await screen.findByLabelText('New password');
    expect(password.getAttribute('autocomplete')).toBe('new-password');
    expect(password.getAttribute('type')).toBe('password');
    await userEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password.getAttribute('type')).toBe('text');
  });

  it("shows the spec's messages for an empty submit, and sends nothing", async () => {
    const server = await openChangePassword(key);
    await confirm('', '');
    expect(await screen.findByText(CODE_REQUIRED)).toBeTruthy();
    expect(screen.getByText(NEW_PASSWORD_REQUIRED)).toBeTruthy();
    expect(requestTo(server.requests, 'password/reset/confirmation')).toEqual([]);
  });

  it('asks for all 6 digits of a short code', async () => {
    await openChangePassword(key);
    await confirm('12345', 'New-Passw0rd!');
    expect(await screen.findByText(CODE_REQUIRED)).toBeTruthy();
  });

  it('updates the checklist as the user types, and says the password is strong only when all five rules hold', async () => {
    await openChangePassword(key);
    const password = screen.getByLabelText('New password');
    expect(Object.values(checklist())).toEqual(['unmet', 'unmet', 'unmet', 'unmet', 'unmet']);
    expect(screen.getByText('Your password must contain:')).toBeTruthy();

    await userEvent.type(password, 'abc');
    expect(checklist()).toEqual({
      'at least 8 characters': 'unmet',
      'at least one lowercase letter': 'met',
      'at least one UPPERCASE letter': 'unmet',
      'at least one number': 'unmet',
      'at least one special character (e.g. ~ ! @ # $ %)': 'unmet',
    });
    await userEvent.type(password, 'defG1');
    expect(Object.values(checklist())).toEqual(['met', 'met', 'met', 'met', 'unmet']);
    expect(screen.queryByText(STRONG)).toBeNull();

    await userEvent.type(password, '!');
    expect(Object.values(checklist())).toEqual(['met', 'met', 'met', 'met', 'met']);
    await waitFor(() => expect(screen.getByRole('status', { name: '' }).textContent).toBe(STRONG));

    await userEvent.type(password, '{Backspace}');
    expect(screen.queryByText(STRONG)).toBeNull();
  });

  it('calls a password on the common-password list too common, never strong, though it meets every rule', async () => {
    await openChangePassword(key);
    const password = screen.getByLabelText('New password');
    await userEvent.type(password, 'P@ssw0rd');
    expect(Object.values(checklist())).toEqual(['met', 'met', 'met', 'met', 'met']);
    await waitFor(() => expect(screen.getByRole('status', { name: '' }).textContent).toBe('This password is too common and easy to guess. Please choose a different one.'));
    expect(screen.queryByText(STRONG)).toBeNull();
    await userEvent.type(password, 'Quartz');
    await waitFor(() => expect(screen.getByRole('status', { name: '' }).textContent).toBe(STRONG));
  });

  it('blocks a weak password before sending it, with the first unmet rule', async () => {
    const server = await openChangePassword(key);
    await confirm('123456', 'abcdefg1!');
    const field = screen.getByLabelText('New password');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(within(field.closest('.field') as HTMLElement).getByText('at least one UPPERCASE letter', { selector: '.field-errors li' })).toBeTruthy();
    expect(requestTo(server.requests, 'password/reset/confirmation')).toEqual([]);
  });

  it('sends a pasted "123 456" as 123456, the email submitted earlier, and the password encrypted', async () => {
    const server = await openChangePassword(key);
    await userEvent.click(screen.getByLabelText('Verification code'));
    await userEvent.paste('123 456');
    expect((screen.getByLabelText('Verification code') as HTMLInputElement).value).toBe('123456');
    await confirm('', 'New-Passw0rd!');
    await screen.findByRole('heading', { name: 'Your password has been reset' });

    const [sent] = requestTo(server.requests, 'password/reset/confirmation');
    const body = sent?.body as { email: string; code: string; password: string };
    expect(Object.keys(body).sort()).toEqual(['code', 'email', 'password']);
    expect(body.email).toBe('ada@example.com');
    expect(body.code).toBe('123456');
    expect(body.password).not.toContain('New-Passw0rd!');
    expect(await decryptField(body.password, key.privateKey)).toEqual({ v: 'New-Passw0rd!', n: 'nonce-1' });
  });

  it.each(fixtureNames(FLOW, 'reset-confirmation-').filter((name) => !name.endsWith('success')))(
    "shows the server's message on the field it names, or else in the alert, and stays on the step (%s)",
    async (name) => {
      const answer = fixture(FLOW, name);
      const { error_message: message, error_params: params } = answer.body as { error_message: string; error_params?: { field?: string } };
      await openChangePassword(key, { 'POST password/reset/confirmation': answer });
      await confirm('123456', 'New-Passw0rd!');
      if (params?.field) {
        const field = document.querySelector(`form [name="${params.field}"]`);
        await waitFor(() => expect(field?.getAttribute('aria-invalid')).toBe('true'));
        const described = (field?.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '');
        expect(described.join(' ')).toContain(message);
        expect(screen.queryByRole('alert')).toBeNull();
      } else {
        expect((await screen.findByRole('alert')).textContent).toBe(message);
      }
      expect(document.title).toBe('Forgot Password');
    },
  );

  it('sends the email the user submitted, not the username in the URL', async () => {
    const server = fakeServer(recoveryRoutes(key));
    renderAppAt(`/auth/forgot-password${SIGN_IN}&username=old%40example.com`);
    const email = await screen.findByLabelText('Email');
    await userEvent.clear(email);
    await userEvent.type(email, 'ada@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    await userEvent.click(await screen.findByRole('link', { name: 'Enter the code' }));
    await screen.findByLabelText('Verification code');
    expect(new URLSearchParams(window.location.search).get('username')).toBe('old@example.com');
    await confirm('123456', 'New-Passw0rd!');
    await screen.findByRole('heading', { name: 'Your password has been reset' });
    expect((requestTo(server.requests, 'password/reset/confirmation')[0]?.body as { email: string }).email).toBe('ada@example.com');
  });

  it('still knows the email after a reload of the code screen', async () => {
    const server = await openChangePassword(key);
    const url = `${window.location.pathname}${window.location.search}`;
    cleanup();
    renderAppAt(url);
    await screen.findByLabelText('Verification code');
    await confirm('123456', 'New-Passw0rd!');
    await screen.findByRole('heading', { name: 'Your password has been reset' });
    expect((requestTo(server.requests, 'password/reset/confirmation')[0]?.body as { email: string }).email).toBe('ada@example.com');
  });

  it('counts "Send a new code" down from the first code, as the second factor\'s screen does', async () => {
    const sent = { parameters: { delivery_destination: 'a•••@example.com', expires_in: 600, retry_after: 60 }, challenge: 'PASSWORD_RECOVERY' };
    await openChangePassword(key, { 'POST password/reset': { body: sent } });
    const resend = screen.getByRole('button', { name: /^Send a new code \(in (60|59) s\)$/ });
    expect(resend).toHaveProperty('disabled', true);
  });

  it('asks for a new code in place with the email given before, then counts down to the next, keeping what was typed', async () => {
    const sent = (wait: number) => ({ body: { challenge: 'PASSWORD_RECOVERY', parameters: { delivery_destination: 'a•••@example.com', expires_in: 600, retry_after: wait } } });
    const server = await openChangePassword(key, { 'POST password/reset': [sent(0), sent(60)] });
    await userEvent.type(screen.getByLabelText('Verification code'), '123');
    await userEvent.click(screen.getByRole('button', { name: 'Send a new code' }));
    expect(await screen.findByRole('button', { name: /^Send a new code \(in (60|59) s\)$/ })).toHaveProperty('disabled', true);
    expect(requestTo(server.requests, 'password/reset').map((request) => request.body)).toEqual([{ email: 'ada@example.com' }, { email: 'ada@example.com' }]);
    expect(document.title).toBe('Forgot Password');
    expect((screen.getByLabelText('Verification code') as HTMLInputElement).value).toBe('123');
  });
});
