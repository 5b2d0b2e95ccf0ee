// @vitest-environment node
/**
 * The recorder's walk as data: where steps begin and end (a new screen, a retry on the same
 * screen, a trip through the provider), and routes read off paths as the router does.
 */
import { describe, expect, it } from 'vitest';
import {
  createRecordingState,
  recordAction,
  recordArrival,
  recordRequest,
  recordScreen,
  recordTyping,
  toFixture,
  type RecordingState,
} from '../../src/recorder/recording.ts';
import { createRouteOf } from '../../src/recorder/route-of.ts';

const START = { path: '/auth/login', query: { client_id: 'app' } };
const typedValues = (fields: readonly string[]) => Object.fromEntries(fields.map((name) => [name, `{{${name}}}`]));
const submit = { type: 'submit', label: 'Log In' } as const;
const summary = (state: RecordingState, left = false) =>
  toFixture(state, { messages: ['now on show'], left }, 'test').steps.map((step) => [step.route, step.action?.type ?? 'end', step.sameScreen === true]);

describe('recording', () => {
  it('ends a screen the app moved on from by itself as "auto", keeping its requests', () => {
    const state = createRecordingState(START);
    const exchange = recordRequest(state, { method: 'GET', path: 'authorize' });
    exchange.response = { status: 200, body: {} };
    recordScreen(state, 'login', 'Log In');
    recordScreen(state, 'error', 'Error');
    const fixture = toFixture(state, { messages: ['Not registered.'], left: false }, 'test');
    expect(fixture.steps).toEqual([
      { route: 'login', title: 'Log In', messages: [], action: { type: 'auto' }, requests: [{ method: 'GET', path: 'authorize', response: { status: 200, body: {} } }] },
      { route: 'error', title: 'Error', messages: ['Not registered.'], requests: [] },
    ]);
  });

  it('ignores the same screen shown twice untouched (React development mode mounts twice)', () => {
    const state = createRecordingState(START);
    recordScreen(state, 'login', 'Log In');
    recordScreen(state, 'login', 'Log In');
    expect(summary(state)).toEqual([['login', 'end', false]]);
  });

  it('makes typing again after an action a new step on the same screen, with what was typed and shown', () => {
    const state = createRecordingState(START);
    recordScreen(state, 'login', 'Log In');
    recordTyping(state, 'email');
    recordTyping(state, 'password');
    recordAction(state, submit, typedValues, []);
    recordTyping(state, 'password');
    recordAction(state, submit, typedValues, ['Incorrect email or password.']);
    recordScreen(state, 'redirect', 'Authenticate');
    const steps = toFixture(state, { messages: [], left: true }, 'test').steps;
    expect(steps.map(({ inputs, messages, sameScreen }) => ({ inputs, messages, sameScreen }))).toEqual([
      { inputs: { email: '{{email}}', password: '{{password}}' }, messages: [], sameScreen: undefined },
      { inputs: { password: '{{password}}' }, messages: ['Incorrect email or password.'], sameScreen: true },
      { inputs: undefined, messages: [], sameScreen: undefined },
    ]);
    expect(steps.map((step) => step.action?.type)).toEqual(['submit', 'submit', 'leave']);
  });

  it.each([
    ['a step that hands the browser on', true, 'leave'],
    ['any other step (the page was reloaded)', false, 'reload'],
  ])('ends the last screen before a page load as %s', (_label, navigates, action) => {
    const state = createRecordingState(START);
    recordScreen(state, 'redirect', 'Authenticate');
    recordArrival(state, { path: '/auth/login', query: { interaction: 'i1' } }, () => navigates);
    recordScreen(state, 'login', 'Log In');
    const steps = toFixture(state, { messages: [], left: false }, 'test').steps;
    expect(steps[0]?.action).toEqual({ type: action });
    expect(steps[1]?.arrive).toEqual({ path: '/auth/login', query: { interaction: 'i1' } });
  });

  it('leaves out requests still waiting for an answer, and leaves the recording as it was', () => {
    const state = createRecordingState(START);
    recordScreen(state, 'login', 'Log In');
    recordRequest(state, { method: 'GET', path: 'clients/app' });
    recordAction(state, submit, typedValues, []);
    const before = JSON.stringify(state);
    expect(toFixture(state, { messages: ['x'], left: false }, 'test').steps.map((step) => step.requests)).toEqual([[], []]);
    expect(JSON.stringify(state)).toBe(before);
  });
});

describe('createRouteOf', () => {
  const routeOf = createRouteOf(
    [
      { route: 'login' },
      { route: 'forgot-password', aliases: ['recover-password'] },
      { route: 'change-password/:delivery_destination' },
      { route: 'mfa/verify/:action?' },
      { route: 'not-found' },
    ],
    '/auth',
    'not-found',
  );

  it.each([
    ['/auth/login', 'login'],
    ['/auth/recover-password', 'forgot-password'],
    ['/auth/change-password/d%E2%80%A2%E2%80%A2%E2%80%A2%40example.com', 'change-password/:delivery_destination'],
    ['/auth/mfa/verify', 'mfa/verify/:action?'],
    ['/auth/mfa/verify/resend', 'mfa/verify/:action?'],
    ['/auth/change-password', 'not-found'],
    ['/auth/no/such/page', 'not-found'],
  ])('reads %s as %s', (path, route) => {
    expect(routeOf(path)).toBe(route);
  });
});
