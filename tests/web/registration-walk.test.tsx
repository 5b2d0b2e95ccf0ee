/**
 * The registration walk as the browser makes it, taken from the flows: from the register form every step the graph
 * leads to is filled from its example inputs and submitted, up to the emailed code; each sends exactly its example
 * values, and survives a reload. A step added as JSON (the cost-centre fixture: tests/tools/web-walk-fixture.test.ts)
 * is walked with no edit here.
 */
import { cleanup, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestCredentialKey, type TestCredentialKey } from './support/credential-key.ts';
import { fakeServer, type FakeRoutes } from './support/fake-server.ts';
import { expectStep, fillAndSubmit, graph, walkFrom } from './support/flow-walk.ts';
import { renderAppAt } from './support/render-app.tsx';

const SIGN_IN = '?client_id=merchant-portal&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=s1&interaction=int-1';
/** What each registration call answers on the way: the code went to the address. */
const SENT = { parameters: { delivery_destination: 'a•••@example.com', sent_at: '2026-11-22T09:00:00.000Z', expires_in: 600, retry_after: 60 } };
const WALK = walkFrom('register', SENT);

let key: TestCredentialKey;
beforeAll(async () => {
  key = await createTestCredentialKey();
});
afterEach(cleanup);

function routes(): FakeRoutes {
  const calls = WALK.steps.map((step) => graph.steps[step.id]!.submit!);
  return {
    'GET clients/merchant-portal': { body: { client_id: 'merchant-portal', name: 'Merchant Portal' } },
    'GET crypto/rsa-public-key': () => ({ body: key.answer }),
    'GET authorize': { body: { challenge: 'LOGIN_REQUIRED', parameters: { client_id: 'merchant-portal', client_name: 'Merchant Portal' } } },
    'GET register/otp': { body: SENT },
    ...Object.fromEntries(calls.map((call) => [`${call.method} ${call.path}`, { body: SENT }])),
  };
}

describe('the registration walk, from the flows', () => {
  it('walks every step from register to the emailed code, each sending its example values', { timeout: 60_000 }, async () => {
    expect(WALK.steps.map((step) => step.id)).toContain('job-details');
    const server = fakeServer(routes());
    renderAppAt(`/auth/register${SIGN_IN}`);
    for (const step of WALK.steps) {
      await expectStep(step.id);
      await fillAndSubmit(step.id, step.values);
      const call = graph.steps[step.id]!.submit!;
      const plain = Object.fromEntries(Object.entries(step.values).filter(([field]) => !(call.encrypt ?? []).includes(field)));
      await waitFor(() => expect(server.requests.filter((request) => request.path === call.path).at(-1)?.body).toMatchObject(plain));
    }
    await expectStep(WALK.stopsAt);
  });

  it.each(WALK.steps.slice(1).map((step, index) => [step.id, index + 1] as const))('a reload of %s keeps it', { timeout: 60_000 }, async (id, index) => {
    fakeServer(routes());
    renderAppAt(`/auth/register${SIGN_IN}`);
    for (const step of WALK.steps.slice(0, index)) {
      await expectStep(step.id);
      await fillAndSubmit(step.id, step.values);
    }
    await expectStep(id);
    const here = `${window.location.pathname}${window.location.search}`;
    cleanup();
    renderAppAt(here);
    await expectStep(id);
  });
});
