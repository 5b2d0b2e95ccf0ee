/**
 * The fixture recorder in the running app: a walk with a wrong and a right password, downloaded
 * with the "Download fixture" button, is a valid fixture with no secret in it, and the engine
 * replays it as recorded.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Fixture } from '../../src/recorder/fixture-types.ts';
import { recorderMode } from '../../src/recorder/recorder-switch.ts';
import { fixtureProblems } from '../../scripts/fixtures/fixture-files.ts';
import { flowRouteOf } from '../../scripts/fixtures/flow-routes.ts';
import { walkFixture } from '../../scripts/fixtures/walk-fixture.ts';
import { createTestCredentialKey, type TestCredentialKey } from './support/credential-key.ts';
import { offerPasskeyAutofill } from './support/autofill-browser.ts';
import { createEngineDriver, engineLookup } from './support/engine-driver.ts';
import { fakeServer } from './support/fake-server.ts';

vi.mock('../../src/ui/browser-navigation.ts', () => ({ leaveTo: vi.fn() }));

const LOGIN = '/auth/login?client_id=merchant-portal&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=s1&interaction=W6-TvOVZ2VFcsusGJ';
const WRONG = 'Wrong-Secret-1!';
const RIGHT = 'Right-Secret-2!';

let key: TestCredentialKey;
let stop: (() => void) | undefined;
let removeAutofill: (() => void) | undefined;

beforeAll(async () => {
  key = await createTestCredentialKey();
});

afterEach(() => {
  stop?.();
  stop = undefined;
  removeAutofill?.();
});

/** Records wrong password, then right password, on the login screen; resolves with the downloaded fixture. */
async function recordWrongThenRightPassword(): Promise<Fixture> {
  // A fresh app, as a page load gives: no client name cached by an earlier test.
  vi.resetModules();
  const { startRecorder } = await import('../../src/recorder/recorder.ts');
  const { renderAppAt } = await import('./support/render-app.tsx');
  fakeServer({
    'GET authorize': { body: { challenge: 'LOGIN_REQUIRED', parameters: { client_name: 'Merchant Portal' } } },
    'GET clients/merchant-portal': { body: { client_id: 'merchant-portal', name: 'Merchant Portal' } },
    'GET crypto/rsa-public-key': () => ({ body: key.answer }),
    'GET auth/passkey/options': { body: { challenge: 'PASSKEY_SIGN_IN', parameters: { passkey: { ceremony: 'get', options: { challenge: 'Zm9yLXRoaXMtcnVuLW9ubHk' } } } } },
    'POST auth/login': [
      { status: 401, body: { error_code: 'auth.invalid_credentials', error_message: 'Incorrect email or password.' } },
      { body: { redirect_to: `${window.location.origin}/oidc/auth/W6-TvOVZ2VFcsusGJ` } },
    ],
  });
  // The browser offers passkeys in autofill, as the one a person records in does.
  removeAutofill = offerPasskeyAutofill();
  window.history.replaceState(null, '', `${LOGIN}&record=1`);
  stop = startRecorder({ fresh: true });
  renderAppAt(`${LOGIN}&record=1`);
  await userEvent.type(await screen.findByLabelText('Email'), 'ada@example.com');
  await userEvent.type(screen.getByLabelText('Password'), WRONG);
  await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
  await screen.findByRole('alert');
  await userEvent.clear(screen.getByLabelText('Password'));
  await userEvent.type(screen.getByLabelText('Password'), RIGHT);
  await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
  await waitFor(() => expect(document.title).toBe('Authenticate'));

  let file: Blob | undefined;
  URL.createObjectURL = vi.fn((blob: Blob) => {
    file = blob;
    return 'blob:fixture';
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
  await userEvent.click(screen.getByRole('button', { name: 'Download fixture' }));
  if (!file) throw new Error('the button downloaded nothing');
  return JSON.parse(await file.text()) as Fixture;
}

describe('the fixture recorder', () => {
  it('downloads a valid fixture in which no typed secret appears', { timeout: 20_000 }, async () => {
    const fixture = await recordWrongThenRightPassword();
    const text = JSON.stringify(fixture);
    expect(fixtureProblems(fixture)).toEqual([]);
    for (const secret of [WRONG, RIGHT, 'ada@example.com', 'ada%40example.com']) expect(text).not.toContain(secret);
    // The provider's interaction id would tie the fixture to this server: the walk starts at the client's link.
    const link = { client_id: 'merchant-portal', redirect_uri: 'https://app.example/cb', state: 's1' };
    expect(fixture.start).toEqual({ path: '/auth/login', query: link });
    expect(fixture.steps[0]?.arrive).toEqual({ path: '/auth/login', query: { ...link, interaction: '{{interaction}}' } });
    expect(text).not.toContain('W6-TvOVZ2VFcsusGJ');
    expect(text).not.toContain('Zm9yLXRoaXMtcnVuLW9ubHk');
    expect(fixture.steps.map(({ route, sameScreen, messages, headline, inputs, action }) => ({ route, sameScreen, messages, headline, inputs, action }))).toEqual([
      { route: 'login', sameScreen: undefined, messages: [], headline: 'Log in to proceed', inputs: { email: '{{email}}', password: '{{password}}' }, action: { type: 'submit', label: 'Log In' } },
      { route: 'login', sameScreen: true, messages: ['Incorrect email or password.'], headline: 'Log in to proceed', inputs: { password: '{{password2}}' }, action: { type: 'submit', label: 'Log In' } },
      { route: 'redirect', sameScreen: undefined, messages: [], headline: 'Authenticate', inputs: undefined, action: undefined },
    ]);
    expect(fixture.steps[0]?.requests.find((request) => request.path === 'auth/login')?.body).toEqual({ email: '{{email}}', password: '{{encrypted:password}}' });
  });

  it('records a walk the engine replays as recorded', { timeout: 20_000 }, async () => {
    const fixture = await recordWrongThenRightPassword();
    stop?.();
    stop = undefined;
    removeAutofill?.();
    removeAutofill = undefined;
    const driver = await createEngineDriver(fixture);
    const lookup = engineLookup();
    try {
      // The recorder cannot know the second password is the right one: a person renames {{password2}}; here it is just a value.
      const value = async (name: string) => (name === 'password2' ? RIGHT : lookup(name));
      await walkFixture(fixture, { name: 'recorded', driver, value, routeOf: flowRouteOf(), timeoutMs: 3_000 });
    } finally {
      driver.stop();
    }
  });
});

describe('recorderMode', () => {
  it.each([
    ['?record=1 starts a new recording', '?record=1', null, 'new'],
    ['?record=1 restarts one in progress', '?client_id=a&record=1', 'on', 'new'],
    ['Ctrl+Alt+R asked for a new one before reloading', '', 'new', 'new'],
    ['a recording in progress goes on across pages', '?interaction=i1', 'on', 'continue'],
    ['no switch means no recorder', '?client_id=a', null, 'off'],
  ])('%s', (_label, search, stored, mode) => {
    expect(recorderMode(search, stored)).toBe(mode);
  });
});
