/**
 * Registration as the engine renders it from flows/registration.json, against a fake API: the guarded steps, the code
 * screen's waiting resend link and the success screen's way back. The steps between the register form and the code
 * screen are walked from the flows (tests/web/support/flow-walk.ts), so a step added as JSON is walked here too.
 */
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestCredentialKey, type TestCredentialKey } from './support/credential-key.ts';
import { fakeServer, type FakeRoutes } from './support/fake-server.ts';
import { expectStep, fillAndSubmit, graph, stepDefinition, walkFrom, words } from './support/flow-walk.ts';
import { renderAppAt } from './support/render-app.tsx';

const SIGN_IN = '?client_id=merchant-portal&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=s1&interaction=int-1';
const SENT = { parameters: { delivery_destination: 'a•••@example.com', sent_at: '2026-11-22T09:00:00.000Z', expires_in: 600, retry_after: 60 } };
const WALK = walkFrom('register', SENT);
/** The address the register step's example inputs type. */
const TYPED = WALK.steps[0]!.values as { email: string; firstName: string; lastName: string };
/** The registration steps a person may enter only from the steps their guard names (tests/web/route-table.test.tsx opens every guarded route). */
const GUARDED = Object.values(graph.steps).filter((step) => step.flow === 'registration' && step.guard?.from);

let key: TestCredentialKey;
beforeAll(async () => {
  key = await createTestCredentialKey();
});
afterEach(cleanup);

function registrationRoutes(overrides: FakeRoutes = {}): FakeRoutes {
  return {
    'GET clients/merchant-portal': { body: { client_id: 'merchant-portal', name: 'Merchant Portal' } },
    'GET crypto/rsa-public-key': () => ({ body: key.answer }),
    'GET authorize': { body: { challenge: 'LOGIN_REQUIRED', parameters: { client_id: 'merchant-portal', client_name: 'Merchant Portal' } } },
    ...Object.fromEntries(WALK.steps.map((step) => [`POST ${graph.steps[step.id]!.submit!.path}`, { body: SENT }])),
    'POST register/otp/verification': { body: { challenge: 'SUCCESS_REGISTRATION', redirect_to: 'https://app.example/cb?code=abc&state=s1' } },
    ...overrides,
  };
}

/** Walks from the register form through every step the flows lead to, each filled from its example inputs, up to the code screen. */
async function walkToCode() {
  for (const step of WALK.steps) {
    await expectStep(step.id);
    await fillAndSubmit(step.id, step.values);
  }
  await expectStep(WALK.stopsAt);
}

describe('registration steps', () => {
  it('guards at least one step of registration', () => {
    expect(GUARDED.length).toBeGreaterThan(0);
  });

  it.each(GUARDED.map((step) => [step.id, step.guard!.otherwise] as const))('sends a user who opens %s by its address to %s', async (id, otherwise) => {
    fakeServer(registrationRoutes());
    renderAppAt(`/auth/${stepDefinition(id).route}${SIGN_IN}`);
    await waitFor(() => expect(window.location.pathname).toBe(`/auth/${stepDefinition(otherwise).route}`));
    expect(window.location.search).toBe(SIGN_IN);
    await expectStep(otherwise);
  });

  it('leads from register through every step of the walk to the code screen, with a resend link that waits', async () => {
    fakeServer(registrationRoutes());
    renderAppAt(`/auth/register${SIGN_IN}`);
    await walkToCode();
    expect(document.title).toBe(stepDefinition(WALK.stopsAt).title);
    expect(screen.getByText(/^Send a new code \(in (60|59) s\)$/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Send a new code/ })).toBeNull();
  });

  it('refuses to submit the register form until the terms are accepted', async () => {
    const server = fakeServer(registrationRoutes());
    renderAppAt(`/auth/register${SIGN_IN}`);
    await userEvent.click(await screen.findByRole('button', { name: words(stepDefinition('register').form!.submit!) }));
    await screen.findByText('Please accept the Terms and Conditions');
    expect(server.requests.some((request) => request.path === 'register')).toBe(false);
  });

  it('shows the success screen with a button back to the client app', async () => {
    fakeServer(registrationRoutes());
    renderAppAt(`/auth/register${SIGN_IN}`);
    await walkToCode();
    await fillAndSubmit(WALK.stopsAt, { code: '123456' });
    await screen.findByRole('heading', { name: 'Congratulations' });
    expect(document.title).toBe('Register | Success');
    expect(screen.getByRole('link', { name: 'Continue to the app' }).getAttribute('href')).toBe('https://app.example/cb?code=abc&state=s1');
  });

  it("shows a new account's first recovery codes once on the success screen, above the way back to the app", async () => {
    const codes = ['ABCD-EFGH-JKLM', 'NPQR-STUV-WXYZ'];
    const success = { challenge: 'SUCCESS_REGISTRATION', redirect_to: 'https://app.example/cb?code=abc&state=s1', parameters: { recovery_codes: codes } };
    fakeServer(registrationRoutes({ 'POST register/otp/verification': { body: success } }));
    renderAppAt(`/auth/register${SIGN_IN}`);
    await walkToCode();
    await fillAndSubmit(WALK.stopsAt, { code: '123456' });
    const list = await screen.findByRole('list', { name: 'Your recovery codes' });
    expect([...list.querySelectorAll('li')].map((item) => item.textContent)).toEqual(codes);
    expect(screen.getByRole('button', { name: 'Copy codes' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Continue to the app' })).toBeTruthy();
  });

  it('names the address just typed in full on the code screen, and "Wrong address? Change it" returns to the form with its details', async () => {
    fakeServer(registrationRoutes());
    renderAppAt(`/auth/register${SIGN_IN}`);
    await walkToCode();
    expect(screen.getByText(`We sent a 6-digit code to ${TYPED.email} at`, { exact: false })).toBeTruthy();
    expect(screen.queryByText(/a•••@example\.com/)).toBeNull();
    await userEvent.click(screen.getByRole('link', { name: 'Wrong address? Change it' }));
    await expectStep('register');
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe(TYPED.email);
    expect((screen.getByLabelText('First name') as HTMLInputElement).value).toBe(TYPED.firstName);
    expect((screen.getByLabelText('Last name') as HTMLInputElement).value).toBe(TYPED.lastName);
  });

  it('falls back to the masked address the server sent when this tab no longer holds the typed one', async () => {
    fakeServer(registrationRoutes({ 'GET register/otp': { body: SENT } }));
    renderAppAt(`/auth/register/verify-email/a%E2%80%A2%E2%80%A2%E2%80%A2%40example.com${SIGN_IN}`);
    await screen.findByRole('heading', { name: 'Confirm your email address' });
    expect(await screen.findByText(/We sent a 6-digit code to a•••@example\.com at/)).toBeTruthy();
  });
});
