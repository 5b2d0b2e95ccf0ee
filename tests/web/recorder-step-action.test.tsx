/**
 * The fixture recorder and a step's own buttons: "Don't allow" on the consent screen (a step action, a call of its
 * own) ends the step as a `button` action the replay clicks again; showing the password (a plain button that stays on
 * the screen) ends nothing.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import type { RecordingState } from '../../src/recorder/recording.ts';
import { config } from '../../src/config.ts';
import { fakeServer } from './support/fake-server.ts';

vi.mock('../../src/ui/browser-navigation.ts', () => ({ leaveTo: vi.fn() }));

const CONSENT = '/auth/consent?interaction=W6-TvOVZ2VFcsusGJ';
const ASKED = { challenge: 'CONSENT_REQUIRED', parameters: { client_name: 'Partner Budgeting', scopes: { email: true, profile: true }, unasked: { company: true, offline_access: true } } };

let stop: (() => void) | undefined;

afterEach(() => {
  stop?.();
  stop = undefined;
});

/** The walk the recorder keeps in the tab's storage. */
function kept(): RecordingState {
  return JSON.parse(sessionStorage.getItem(config.recorder.walkKey) ?? 'null') as RecordingState;
}

/** A fresh app at `path` with the recorder on, answering as `routes` say. */
async function recordAt(path: string, routes: Parameters<typeof fakeServer>[0]): Promise<void> {
  vi.resetModules();
  const { startRecorder } = await import('../../src/recorder/recorder.ts');
  const { renderAppAt } = await import('./support/render-app.tsx');
  fakeServer(routes);
  window.history.replaceState(null, '', `${path}&record=1`);
  stop = startRecorder({ fresh: true });
  renderAppAt(`${path}&record=1`);
}

it("records Don't allow on the consent screen as the step's button action", { timeout: 20_000 }, async () => {
  await recordAt(CONSENT, {
    'GET consent': { body: ASKED },
    'POST consent/deny': { body: { redirect_to: `${window.location.origin}/oidc/auth/W6-TvOVZ2VFcsusGJ` } },
  });
  await userEvent.click(await screen.findByRole('button', { name: "Don't allow" }));
  // The step closes when the next screen shows; a loaded machine takes a while to draw it.
  await waitFor(() => expect(kept().steps[0]?.action).toEqual({ type: 'button', label: "Don't allow" }), { timeout: 5_000 });
  expect(kept().steps[0]?.route).toBe('consent');
});

it('records no action for showing the password: the step goes on', { timeout: 20_000 }, async () => {
  await recordAt('/auth/login?client_id=merchant-portal&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=s1&interaction=W6-TvOVZ2VFcsusGJ', {
    'GET authorize': { body: { challenge: 'LOGIN_REQUIRED', parameters: { client_name: 'Merchant Portal' } } },
    'GET clients/merchant-portal': { body: { client_id: 'merchant-portal', name: 'Merchant Portal' } },
  });
  await userEvent.click(await screen.findByRole('button', { name: 'Show password' }));
  await screen.findByRole('button', { name: 'Hide password' });
  expect(kept().steps).toEqual([]);
  expect(kept().open.route).toBe('login');
  expect(kept().open.action).toBeUndefined();
});
