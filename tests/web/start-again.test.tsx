/**
 * A failure that leaves the sign-in nowhere to go on to (a step it has moved past: Back from the company picker onto
 * the code step, then a valid code) says so and offers "Start again", a link that starts a fresh sign-in: the app's
 * own sign-in start, through the server, or the account page's login when no app is named. Issue 27, item 5.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestCredentialKey, type TestCredentialKey } from './support/credential-key.ts';
import { fakeServer, type FakeRoutes } from './support/fake-server.ts';
import { renderAppAt } from './support/render-app.tsx';

const SIGN_IN = '?client_id=merchant-portal&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=s1&interaction=int-1';

let key: TestCredentialKey;

beforeAll(async () => {
  key = await createTestCredentialKey();
});

function routes(login: FakeRoutes[string]): FakeRoutes {
  return {
    'GET authorize': { body: { challenge: 'LOGIN_REQUIRED', parameters: { client_name: 'Merchant Portal' } } },
    'GET clients/merchant-portal': { body: { client_id: 'merchant-portal', name: 'Merchant Portal' } },
    'GET crypto/rsa-public-key': () => ({ body: key.answer }),
    'POST auth/login': login,
  };
}

async function logIn(query: string) {
  renderAppAt(`/auth/login${query}`);
  await userEvent.type(await screen.findByLabelText('Email'), 'ada@example.com');
  await userEvent.type(screen.getByLabelText('Password'), 'Temp-Passw0rd!');
  await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
}

const outOfOrder = {
  status: 409,
  body: { error_code: 'step.out_of_order', error_message: 'This step is not available at this point of your sign-in. Please start again.' },
};

describe('"Start again"', () => {
  it('follows "This step is not available… start again" and leads to the app\'s own sign-in start, naming only the app', async () => {
    fakeServer(routes(outOfOrder));
    await logIn(SIGN_IN);
    expect((await screen.findByRole('alert')).textContent).toContain('This step is not available at this point of your sign-in. Please start again.');
    expect(screen.getByRole('link', { name: 'Start again' }).getAttribute('href')).toBe('/auth/login?client_id=merchant-portal');
  });

  it('follows an expired sign-in too', async () => {
    fakeServer(routes({ status: 401, body: { error_code: 'transaction.missing', error_message: 'Your sign-in has expired.' } }));
    await logIn(SIGN_IN);
    expect((await screen.findByRole('link', { name: 'Start again' })).getAttribute('href')).toBe('/auth/login?client_id=merchant-portal');
  });

  it('is not offered for a failure that trying again on the same screen can fix', async () => {
    fakeServer(routes({ status: 401, body: { error_code: 'auth.invalid_credentials', error_message: 'Wrong email or password.' } }));
    await logIn(SIGN_IN);
    await screen.findByRole('alert');
    expect(screen.queryByRole('link', { name: 'Start again' })).toBeNull();
  });
});
