/**
 * The method choice at sign-in names each second factor as the person named it on the account page, and words the
 * unnamed ones by their kind.
 */
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeServer } from './support/fake-server.ts';
import { renderAppAt } from './support/render-app.tsx';

const SIGN_IN = '?client_id=merchant-portal&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=s1&interaction=int-1';

afterEach(cleanup);

describe('the method choice at sign-in', () => {
  it('shows a named factor by its name and the others by their kind', async () => {
    fakeServer({
      'GET clients/merchant-portal': { body: { client_id: 'merchant-portal', name: 'Merchant Portal' } },
      'GET auth/mfa/selection': {
        body: { challenge: 'SELECT_MFA_TYPE', parameters: { availableChoices: [{ type: 'email', destination: 'd•••@example.com' }, { type: 'sms', destination: '•••0123', name: 'Work phone' }] } },
      },
    });
    renderAppAt(`/auth/mfa/select-mfa${SIGN_IN}`);
    expect(await screen.findByRole('radio', { name: 'Work phone' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Email to d•••@example.com' })).toBeTruthy();
    expect(screen.queryByRole('radio', { name: 'Text message to •••0123' })).toBeNull();
  });
});
