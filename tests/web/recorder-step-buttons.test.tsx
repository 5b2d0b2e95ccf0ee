/**
 * The fixture recorder and the buttons that go back or copy: "Back to registration" on the terms page, the frame's
 * "← Back" and "Copy key" on the authenticator app's setup are what the person did on that screen, so a recording
 * keeps them as `button` actions the replay presses again, as it keeps a step's own call.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { toFixture, type RecordingState } from '../../src/recorder/recording.ts';
import { config } from '../../src/config.ts';
import { flowRouteOf } from '../../scripts/fixtures/flow-routes.ts';
import { walkFixture } from '../../scripts/fixtures/walk-fixture.ts';
import { createEngineDriver, engineLookup } from './support/engine-driver.ts';
import { fakeServer, type FakeRoutes } from './support/fake-server.ts';

const tab = vi.hoisted(() => ({ goBack: vi.fn() }));
vi.mock('../../src/ui/tab-return.ts', () => ({ isOnlyPageOfTab: () => false, closeTab: vi.fn(), goBack: tab.goBack }));
// The engine replay reads leaving the app from this mock (jsdom cannot leave the page).
vi.mock('../../src/ui/browser-navigation.ts', () => ({ leaveTo: vi.fn() }));

const SIGN_IN = '?client_id=merchant-portal&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=s1&interaction=int-1';
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const TOTP_SETUP = { mfa_code: '0d9c4a7e-2f43-4f4e-9a1e-3b7f6c1d2e11', secret: SECRET, issuer: 'Payments Network', account: 'ada@example.com', otpauth_uri: `otpauth://totp/Payments%20Network:ada%40example.com?secret=${SECRET}` };

let stop: (() => void) | undefined;

afterEach(() => {
  stop?.();
  stop = undefined;
  vi.unstubAllGlobals();
});

/** The walk the recorder keeps in the tab's storage. */
function kept(): RecordingState {
  return JSON.parse(sessionStorage.getItem(config.recorder.walkKey) ?? 'null') as RecordingState;
}

/** A fresh app at `path` with the recorder on. */
async function recordAt(path: string): Promise<void> {
  vi.resetModules();
  const { startRecorder } = await import('../../src/recorder/recorder.ts');
  const { renderAppAt } = await import('./support/render-app.tsx');
  window.history.replaceState(null, '', `${path}&record=1`);
  stop = startRecorder({ fresh: true });
  renderAppAt(`${path}&record=1`);
}

it('records going back from the terms page as the step\'s button action', { timeout: 20_000 }, async () => {
  vi.stubGlobal('fetch', vi.fn(async () => new Response('These terms apply to your use of the service.', { status: 200, headers: { 'content-type': 'text/plain' } })));
  await recordAt(`/auth/terms-conditions${SIGN_IN}`);
  await userEvent.click(await screen.findByRole('button', { name: 'Back to registration' }));
  await waitFor(() => expect(tab.goBack).toHaveBeenCalledTimes(1));
  expect(kept().open.route).toBe('terms-conditions');
  expect(kept().open.action).toEqual({ type: 'button', label: 'Back to registration' });
});

it("records the frame's Back as a button action, and the recorded walk replays through it", { timeout: 30_000 }, async () => {
  fakeServer({
    'GET clients/merchant-portal': { body: { client_id: 'merchant-portal', name: 'Merchant Portal' } },
    'GET auth/mfa/selection': { body: { challenge: 'MFA_SETUP', parameters: { availableChoices: [{ type: 'totp' }], registration: false } } },
    'POST auth/2fa/initialization': { body: { challenge: 'SETUP_SOFTWARE_TOKEN_MFA', parameters: TOTP_SETUP } },
  });
  await recordAt(`/auth/mfa/select-mfa${SIGN_IN}`);
  await userEvent.click(await screen.findByRole('radio', { name: /Authenticator app/ }));
  await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
  await userEvent.click(await screen.findByRole('button', { name: 'Back' }));
  await screen.findByRole('radio', { name: /Authenticator app/ });
  await waitFor(() => expect(kept().open.route).toBe('mfa/select-mfa'));
  // The frame's button reads "← Back"; the arrow is hidden from screen readers, so the replay finds the button as "Back".
  expect(kept().steps.find((step) => step.route === 'mfa/setup-totp/:mfa_code')?.action).toEqual({ type: 'button', label: 'Back' });
  const walk = toFixture(kept(), { messages: [], left: false }, 'Chooses the authenticator app, then goes Back to the choice.');
  stop?.();
  stop = undefined;
  const driver = await createEngineDriver(walk);
  const lookup = engineLookup();
  try {
    await walkFixture(walk, { name: 'mfa/back-from-totp-setup', driver, routeOf: flowRouteOf(), value: async (name) => lookup(name), timeoutMs: 3_000 });
  } finally {
    driver.stop();
  }
});

it('records copying the authenticator key as a button action on the setup screen', { timeout: 20_000 }, async () => {
  const routes: FakeRoutes = {
    'GET clients/merchant-portal': { body: { client_id: 'merchant-portal', name: 'Merchant Portal' } },
    'GET auth/mfa/selection': { body: { challenge: 'MFA_SETUP', parameters: { availableChoices: [{ type: 'totp' }], registration: false } } },
    'POST auth/2fa/initialization': { body: { challenge: 'SETUP_SOFTWARE_TOKEN_MFA', parameters: TOTP_SETUP } },
  };
  fakeServer(routes);
  await recordAt(`/auth/mfa/select-mfa${SIGN_IN}`);
  await userEvent.click(await screen.findByRole('radio', { name: /Authenticator app/ }));
  await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
  await userEvent.click(await screen.findByRole('button', { name: 'Copy key' }));
  await waitFor(() => expect(kept().open.action).toEqual({ type: 'button', label: 'Copy key' }));
  expect(kept().open.route).toBe('mfa/setup-totp/:mfa_code');
});
