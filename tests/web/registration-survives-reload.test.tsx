/**
 * Registration survives a reload, Back and Forward: what the user typed is kept in the tab's sessionStorage (never
 * the password), each step after the register form keeps what was typed in the tab that reached it, and the success
 * screen entered again says the sign-in is over instead of offering a retry. The steps are walked from the flows
 * (tests/web/support/flow-walk.ts; a reload of each is tests/web/registration-walk.test.tsx's), so a step added as
 * JSON is walked here too.
 */
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestCredentialKey, type TestCredentialKey } from './support/credential-key.ts';
import { fakeServer, type FakeRoutes } from './support/fake-server.ts';
import { expectStep, fillAndSubmit, graph, stepDefinition, walkFrom } from './support/flow-walk.ts';
import { renderAppAt } from './support/render-app.tsx';

const SIGN_IN = '?client_id=merchant-portal&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=s1&interaction=int-1';
const SENT = { parameters: { delivery_destination: 'a•••@example.com', sent_at: '2026-11-22T09:00:00.000Z', expires_in: 600, retry_after: 60 } };
const WALK = walkFrom('register', SENT);
/** What the register step's example inputs type. */
const TYPED = WALK.steps[0]!.values as { email: string; firstName: string; lastName: string; password: string };

let key: TestCredentialKey;
beforeAll(async () => {
  key = await createTestCredentialKey();
});
afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

function registrationRoutes(overrides: FakeRoutes = {}): FakeRoutes {
  return {
    'GET clients/merchant-portal': { body: { client_id: 'merchant-portal', name: 'Merchant Portal' } },
    'GET crypto/rsa-public-key': () => ({ body: key.answer }),
    'GET authorize': { body: { challenge: 'LOGIN_REQUIRED', parameters: { client_id: 'merchant-portal', client_name: 'Merchant Portal' } } },
    ...Object.fromEntries(WALK.steps.map((step) => [`POST ${graph.steps[step.id]!.submit!.path}`, { body: SENT }])),
    ...overrides,
  };
}

/** Opens the register form and walks its steps, each filled from its example inputs, up to (not into) step `upTo`. */
async function walkUpTo(upTo: string) {
  renderAppAt(`/auth/register${SIGN_IN}`);
  for (const step of WALK.steps) {
    await expectStep(step.id);
    if (step.id === upTo) return;
    await fillAndSubmit(step.id, step.values);
  }
  await expectStep(upTo);
}

/** The text values step `id` submits, which the step shows again when entered anew. */
const typedOn = (id: string) => Object.values(WALK.steps.find((step) => step.id === id)!.values).filter((value): value is string => typeof value === 'string');

describe('registration survives reload, Back and Forward', { timeout: 20_000 }, () => {
  it('going back to the register form finds what was typed, except the password', async () => {
    fakeServer(registrationRoutes());
    await walkUpTo(WALK.steps[1]?.id ?? WALK.stopsAt);
    expect(sessionStorage.getItem('sso.submitted') ?? '').not.toContain(TYPED.password);
    cleanup();
    renderAppAt(`/auth/register${SIGN_IN}`);
    expect(await screen.findByDisplayValue(TYPED.email)).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('First name').value).toBe(TYPED.firstName);
    expect(screen.getByLabelText<HTMLInputElement>('Last name').value).toBe(TYPED.lastName);
    expect(screen.getByLabelText<HTMLInputElement>('Password').value).toBe('');
  });

  it.each(WALK.steps.slice(1).map((step) => [step.id] as const))('going back from the code screen to %s finds what was typed there', async (id) => {
    fakeServer(registrationRoutes({ 'GET register/otp': { body: SENT } }));
    await walkUpTo(WALK.stopsAt);
    cleanup();
    renderAppAt(`/auth/${stepDefinition(id).route}${SIGN_IN}`);
    for (const value of typedOn(id)) expect(await screen.findByDisplayValue(value)).toBeTruthy();
  });

  it('the registration success screen entered again says the sign-in is over, with no "Try again"', async () => {
    fakeServer(
      registrationRoutes({
        'GET auth/sign-in/status': { body: { parameters: { signed_in: true, client_name: 'Merchant Portal', app_url: 'https://app.example/' } } },
      }),
    );
    renderAppAt(`/auth/register/success${SIGN_IN}`);
    expect(await screen.findByRole('heading', { name: "You're signed in to Merchant Portal" })).toBeTruthy();
    expect(screen.queryByText('Try again')).toBeNull();
    expect(screen.queryByText('Congratulations')).toBeNull();
  });
});

describe("a client's link to register", { timeout: 20_000 }, () => {
  it.each(['/auth/register', '/auth/sign-up', '/auth/auth/sign-up'])('%s with a client opens Register inside that client\'s sign-in, as prompt=create does', async (path) => {
    const server = fakeServer(registrationRoutes({ 'GET authorize': { body: { redirect_to: '/oidc/auth?client_id=merchant-portal&prompt=create' } } }));
    renderAppAt(`${path}?client_id=merchant-portal&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=s1`);
    await waitFor(() => expect(server.requests.some((request) => request.path === 'authorize')).toBe(true));
    const authorize = server.requests.find((request) => request.path === 'authorize');
    expect(authorize?.query.get('prompt')).toBe('create');
    expect(authorize?.query.get('client_id')).toBe('merchant-portal');
  });
});
