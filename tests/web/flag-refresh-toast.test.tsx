/**
 * The browser services as the page starts them after the first screen: when the flag service cannot be reached and
 * its background refresh fails too, the user is told the app keeps its standard settings; a service that answers
 * brings no toast.
 */
import { act } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { config } from '../../src/config.ts';
import { appToasts } from '../../src/services/app-toasts.ts';
import { startServices } from '../../src/ui/services/start-services.ts';
import { fakeServer } from './support/fake-server.ts';
import { expectToastLifecycle } from './support/toast-lifecycle.ts';

const FLAGS_PATH = `${config.featureFlagService.baseUrl}/flags/${config.featureFlagService.project}`;

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  act(() => appToasts.clear());
  document.querySelectorAll('.toast-host').forEach((host) => host.remove());
  vi.useRealTimers();
});

describe('flag refresh toast', () => {
  it('warns once the background refresh of the flags failed as well, and the defaults stay in force', async () => {
    const server = fakeServer({ [`GET ${FLAGS_PATH}`]: { status: 503, body: {} } });
    await act(() => startServices());
    await expectToastLifecycle('Settings not refreshed', 'The app keeps working with its standard settings.');
    expect(server.requests.filter((request) => request.path === FLAGS_PATH)).toHaveLength(2);
  });

  it('shows nothing when the flag service answers', async () => {
    const server = fakeServer({ [`GET ${FLAGS_PATH}`]: { body: { items: [{ key: 'test-flag', environments: { prod: { on: true } } }] } } });
    await act(() => startServices());
    expect(server.requests.filter((request) => request.path === FLAGS_PATH)).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(appToasts.list()).toEqual([]);
  });
});
