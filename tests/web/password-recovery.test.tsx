/**
 * Password recovery as a user meets it: forgot password, the "sent" screen, success and back to the same sign-in.
 * Rendered by the generic StepView from flows/password-recovery.json against a fake API fed with recorded answers.
 * The code and new-password screen has its own file (change-password.test.tsx).
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestCredentialKey, type TestCredentialKey } from './support/credential-key.ts';
import { fakeServer } from './support/fake-server.ts';
import { confirm, openChangePassword, recoveryRoutes, requestTo, SIGN_IN } from './support/password-recovery.ts';
import { renderAppAt } from './support/render-app.tsx';

const DESTINATION = 'd•••@example.com';

let key: TestCredentialKey;

beforeAll(async () => {
  key = await createTestCredentialKey();
});

describe('forgot-password step', () => {
  it('is titled "Forgot Password" and prefills the email from ?username=', async () => {
    fakeServer(recoveryRoutes(key));
    renderAppAt(`/auth/forgot-password${SIGN_IN}&username=ada%40example.com`);
    const email = await screen.findByLabelText('Email');
    expect(document.title).toBe('Forgot Password');
    expect(screen.getByRole('heading', { name: 'Forgot your password?' })).toBeTruthy();
    expect((email as HTMLInputElement).value).toBe('ada@example.com');
    expect(email.getAttribute('autocomplete')).toBe('username');
  });

  it('is also served at recover-password, the same screen', async () => {
    fakeServer(recoveryRoutes(key));
    renderAppAt(`/auth/recover-password${SIGN_IN}`);
    await screen.findByLabelText('Email');
    expect(document.title).toBe('Forgot Password');
    expect(screen.getByRole('heading', { name: 'Forgot your password?' })).toBeTruthy();
    expect(window.location.pathname).toBe('/auth/recover-password');
  });

  it('shows the login screen’s email messages', async () => {
    fakeServer(recoveryRoutes(key));
    renderAppAt(`/auth/forgot-password${SIGN_IN}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Send code' }));
    expect(await screen.findByText("Please enter your email address e.g, 'name@example.com'")).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Email'), 'not-an-email');
    expect(await screen.findByText("Please enter valid email address. e.g 'name@example.com'")).toBeTruthy();
  });

  it('posts only the email to password/reset and shows where the code went', async () => {
    const server = fakeServer(recoveryRoutes(key));
    renderAppAt(`/auth/forgot-password${SIGN_IN}`);
    await userEvent.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));

    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeTruthy();
    expect(document.title).toBe('Forgot Password | Sent');
    // The address just typed, in full on the screen and nowhere in the address bar.
    expect(screen.getByText('If ada@example.com belongs to an account, a 6-digit code is on its way. It is valid for 10 minutes.')).toBeTruthy();
    expect(requestTo(server.requests, 'password/reset').map((request) => request.body)).toEqual([{ email: 'ada@example.com' }]);
    expect(decodeURIComponent(window.location.pathname)).toBe('/auth/forgot-password/sent/email');
    expect(window.location.search).toBe(SIGN_IN);
  });

  it('shows the sent screen with its destination again after a reload', async () => {
    fakeServer(recoveryRoutes(key));
    renderAppAt(`/auth/forgot-password/sent/${encodeURIComponent(DESTINATION)}${SIGN_IN}`);
    expect(await screen.findByText(new RegExp(`^If ${DESTINATION} belongs`))).toBeTruthy();
  });

  it('"Enter the code" leads to change-password/{delivery_destination} with the sign-in query', async () => {
    fakeServer(recoveryRoutes(key));
    renderAppAt(`/auth/forgot-password${SIGN_IN}&username=ada%40example.com`);
    await userEvent.click(await screen.findByRole('button', { name: 'Send code' }));
    const enter = new URL((await screen.findByRole('link', { name: 'Enter the code' })).getAttribute('href') ?? '', 'http://localhost');
    expect(enter.pathname).toBe('/auth/change-password/email');
    expect(Object.fromEntries(enter.searchParams)).toEqual({ ...Object.fromEntries(new URLSearchParams(SIGN_IN)), username: 'ada@example.com' });
  });
});



describe('reset-password-success step', () => {
  it('is titled "Reset Password | Success" and links back to the same sign-in', async () => {
    const server = await openChangePassword(key, {
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
