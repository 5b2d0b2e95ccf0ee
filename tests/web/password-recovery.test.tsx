/**
 * Password recovery as a user meets it: forgot password, the "sent" screen, the code and new
 * password, success and back to the same sign-in. Rendered by the generic StepView from
 * flows/password-recovery.json against a fake API fed with recorded answers.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestCredentialKey, decryptField, type TestCredentialKey } from './support/credential-key.ts';
import { fakeServer, type FakeRequest, type FakeRoutes } from './support/fake-server.ts';
import { fixture, fixtureNames } from './support/fixtures.ts';
import { renderAppAt } from './support/render-app.tsx';

const FLOW = 'password-recovery';
/** The sign-in a client app started: the recovery screens must carry it back to login. */
const SIGN_IN = '?client_id=merchant-portal&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=s1&interaction=int-1';
const DESTINATION = 'd•••@example.com';
const CODE_REQUIRED = 'Please enter 6-digit verification code';
const NEW_PASSWORD_REQUIRED = 'Please enter your new password';
const STRONG = 'Your password is strong';

let key: TestCredentialKey;

beforeAll(async () => {
  key = await createTestCredentialKey();
});

/** The recovery API: the client is known, a code goes out, the confirmation succeeds. */
function recoveryRoutes(overrides: FakeRoutes = {}): FakeRoutes {
  return {
    'GET clients/merchant-portal': { body: { client_id: 'merchant-portal', name: 'Merchant Portal' } },
    'GET crypto/rsa-public-key': () => ({ body: key.answer }),
    'POST password/reset': fixture(FLOW, 'password-reset-sent'),
    'POST password/reset/confirmation': () => fixture(FLOW, 'reset-confirmation-success'),
    ...overrides,
  };
}

const requestTo = (requests: FakeRequest[], path: string) => requests.filter((request) => request.path === path);

/** Forgot password for ada@example.com, then "Enter the code": the code screen is on show. */
async function openChangePassword(overrides: FakeRoutes = {}) {
  const server = fakeServer(recoveryRoutes(overrides));
  renderAppAt(`/auth/forgot-password${SIGN_IN}&username=ada%40example.com`);
  await userEvent.click(await screen.findByRole('button', { name: 'Send code' }));
  await userEvent.click(await screen.findByRole('link', { name: 'Enter the code' }));
  await screen.findByLabelText('Verification code');
  return server;
}

/** Types a code and a new password into the code screen and submits. */
async function confirm(code: string, password: string) {
  if (code) await userEvent.type(screen.getByLabelText('Verification code'), code);
  if (password) await userEvent.type(screen.getByLabelText('New password'), password);
  await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));
}

/** Each rule of the checklist as "met" or "unmet", by its wording. */
function checklist(): Record<string, string> {
  const rules = screen.getAllByRole('listitem').filter((item) => item.classList.contains('password-rule'));
  return Object.fromEntries(
    rules.map((rule) => [rule.querySelector('.password-rule-text')?.textContent ?? '', rule.dataset.met === 'true' ? 'met' : 'unmet']),
  );
}

describe('forgot-password step', () => {
  it('is titled "Forgot Password" and prefills the email from ?username=', async () => {
    fakeServer(recoveryRoutes());
    renderAppAt(`/auth/forgot-password${SIGN_IN}&username=ada%40example.com`);
    const email = await screen.findByLabelText('Email');
    expect(document.title).toBe('Forgot Password');
    expect(screen.getByRole('heading', { name: 'Forgot your password?' })).toBeTruthy();
    expect((email as HTMLInputElement).value).toBe('ada@example.com');
    expect(email.getAttribute('autocomplete')).toBe('username');
  });

  it('is also served at recover-password, the same screen', async () => {
    fakeServer(recoveryRoutes());
    renderAppAt(`/auth/recover-password${SIGN_IN}`);
    await screen.findByLabelText('Email');
    expect(document.title).toBe('Forgot Password');
    expect(screen.getByRole('heading', { name: 'Forgot your password?' })).toBeTruthy();
    expect(window.location.pathname).toBe('/auth/recover-password');
  });

  it('shows the login screen’s email messages', async () => {
    fakeServer(recoveryRoutes());
    renderAppAt(`/auth/forgot-password${SIGN_IN}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Send code' }));
    expect(await screen.findByText("Please enter your email address e.g, 'name@example.com'")).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Email'), 'not-an-email');
    expect(await screen.findByText("Please enter valid email address. e.g 'name@example.com'")).toBeTruthy();
  });

  it('posts only the email to password/reset and shows where the code went', async () => {
    const server = fakeServer(recoveryRoutes());
    renderAppAt(`/auth/forgot-password${SIGN_IN}`);
    await userEvent.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));

    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeTruthy();
    expect(document.title).toBe('Forgot Password | Sent');
    expect(screen.getByText(`If ${DESTINATION} belongs to an account, a 6-digit code is on its way. It is valid for 10 minutes.`)).toBeTruthy();
    expect(requestTo(server.requests, 'password/reset').map((request) => request.body)).toEqual([{ email: 'ada@example.com' }]);
    expect(decodeURIComponent(window.location.pathname)).toBe(`/auth/forgot-password/sent/${DESTINATION}`);
    expect(window.location.search).toBe(SIGN_IN);
  });

  it('shows the sent screen with its destination again after a reload', async () => {
    fakeServer(recoveryRoutes());
    renderAppAt(`/auth/forgot-password/sent/${encodeURIComponent(DESTINATION)}${SIGN_IN}`);
    expect(await screen.findByText(new RegExp(`^If ${DESTINATION} belongs`))).toBeTruthy();
  });

  it('"Enter the code" leads to change-password/{delivery_destination} with the sign-in query', async () => {
    fakeServer(recoveryRoutes());
    renderAppAt(`/auth/forgot-password${SIGN_IN}&username=ada%40example.com`);
    await userEvent.click(await screen.findByRole('button', { name: 'Send code' }));
    const enter = new URL((await screen.findByRole('link', { name: 'Enter the code' })).getAttribute('href') ?? '', 'http://localhost');
    expect(enter.pathname).toBe(`/auth/change-password/${encodeURIComponent(DESTINATION)}`);
    expect(Object.fromEntries(enter.searchParams)).toEqual({ ...Object.fromEntries(new URLSearchParams(SIGN_IN)), username: 'ada@example.com' });
  });
});

describe('change-password step', () => {
  it('is titled "Forgot Password", names the destination and keeps the email out of sight and out of the URL', async () => {
    await openChangePassword();
    expect(document.title).toBe('Forgot Password');
    expect(screen.getByText(`Enter the 6-digit code we sent to ${DESTINATION}, then choose a new password.`)).toBeTruthy();
    const email = document.querySelector<HTMLInputElement>('input[name="email"]');
    expect(email?.hidden).toBe(true);
    expect(email?.value).toBe('ada@example.com');
    expect(email?.getAttribute('autocomplete')).toBe('username');
    expect(window.location.pathname).not.toMatch(/ada/);
  });

  it('offers the code field to one-time-code autofill on a numeric keyboard, and the new password to password managers', async () => {
    await openChangePassword();
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
    const server = await openChangePassword();
    await confirm('', '');
    expect(await screen.findByText(CODE_REQUIRED)).toBeTruthy();
    expect(screen.getByText(NEW_PASSWORD_REQUIRED)).toBeTruthy();
    expect(requestTo(server.requests, 'password/reset/confirmation')).toEqual([]);
  });

  it('asks for all 6 digits of a short code', async () => {
    await openChangePassword();
    await confirm('12345', 'New-Passw0rd!');
    expect(await screen.findByText(CODE_REQUIRED)).toBeTruthy();
  });

  it('updates the checklist as the user types, and says the password is strong only when all five rules hold', async () => {
    await openChangePassword();
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
    await openChangePassword();
    const password = screen.getByLabelText('New password');
    await userEvent.type(password, 'P@ssw0rd');
    expect(Object.values(checklist())).toEqual(['met', 'met', 'met', 'met', 'met']);
    await waitFor(() => expect(screen.getByRole('status', { name: '' }).textContent).toBe('This password is too common and easy to guess. Please choose a different one.'));
    expect(screen.queryByText(STRONG)).toBeNull();
    await userEvent.type(password, 'Quartz');
    await waitFor(() => expect(screen.getByRole('status', { name: '' }).textContent).toBe(STRONG));
  });

  it('blocks a weak password before sending it, with the first unmet rule', async () => {
    const server = await openChangePassword();
    await confirm('123456', 'abcdefg1!');
    const field = screen.getByLabelText('New password');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(within(field.closest('.field') as HTMLElement).getByText('at least one UPPERCASE letter', { selector: '.field-errors li' })).toBeTruthy();
    expect(requestTo(server.requests, 'password/reset/confirmation')).toEqual([]);
  });

  it('sends a pasted "123 456" as 123456, the email submitted earlier, and the password encrypted', async () => {
    const server = await openChangePassword();
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
    "shows the server's message in the alert and stays on the step (%s)",
    async (name) => {
      const answer = fixture(FLOW, name);
      await openChangePassword({ 'POST password/reset/confirmation': answer });
      await confirm('123456', 'New-Passw0rd!');
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toBe((answer.body as { error_message: string }).error_message);
      expect(document.title).toBe('Forgot Password');
    },
  );

  it('sends the email the user submitted, not the username in the URL', async () => {
    const server = fakeServer(recoveryRoutes());
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
    const server = await openChangePassword();
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
    await openChangePassword({ 'POST password/reset': { body: sent } });
    const resend = screen.getByRole('button', { name: /^Send a new code \(in (60|59) s\)$/ });
    expect(resend).toHaveProperty('disabled', true);
  });

  it('asks for a new code in place with the email given before, then counts down to the next, keeping what was typed', async () => {
    const sent = (wait: number) => ({ body: { challenge: 'PASSWORD_RECOVERY', parameters: { delivery_destination: 'a•••@example.com', expires_in: 600, retry_after: wait } } });
    const server = await openChangePassword({ 'POST password/reset': [sent(0), sent(60)] });
    await userEvent.type(screen.getByLabelText('Verification code'), '123');
    await userEvent.click(screen.getByRole('button', { name: 'Send a new code' }));
    expect(await screen.findByRole('button', { name: /^Send a new code \(in (60|59) s\)$/ })).toHaveProperty('disabled', true);
    expect(requestTo(server.requests, 'password/reset').map((request) => request.body)).toEqual([{ email: 'ada@example.com' }, { email: 'ada@example.com' }]);
    expect(document.title).toBe('Forgot Password');
    expect((screen.getByLabelText('Verification code') as HTMLInputElement).value).toBe('123');
  });
});

describe('reset-password-success step', () => {
  it('is titled "Reset Password | Success" and links back to the same sign-in', async () => {
    const server = await openChangePassword({
      'GET authorize': { body: { challenge: 'LOGIN_REQUIRED', parameters: { client_name: 'Merchant Portal' } } },
    });
    await confirm('123456', 'New-Passw0rd!');
    await screen.findByRole('heading', { name: 'Your password has been reset' });
    expect(document.title).toBe('Reset Password | Success');
    expect(window.location.pathname).toBe('/auth/reset-password/success');

    const back = screen.getByRole('link', { name: 'Back to log in' });
    const href = new URL(back.getAttribute('href') ?? '', 'http://localhost');
    expect(href.pathname).toBe('/auth/login');
    expect(Object.fromEntries(href.searchParams)).toEqual({
      client_id: 'merchant-portal',
      redirect_uri: 'https://app.example/cb',
      state: 's1',
      interaction: 'int-1',
      username: 'ada@example.com',
    });

    await userEvent.click(back);
    const email = await screen.findByLabelText('Email');
    expect(document.title).toBe('Log In');
    expect((email as HTMLInputElement).value).toBe('ada@example.com');
    expect(requestTo(server.requests, 'authorize')[0]?.query.get('interaction')).toBe('int-1');
  });
});
