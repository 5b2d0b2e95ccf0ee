/**
 * A replay that goes differently from its fixture fails with a message naming the fixture, the
 * step and its route, and the difference. Each case edits a copy of a real fixture so that the
 * app, which has not changed, no longer matches it.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Fixture } from '../../src/recorder/fixture-types.ts';
import { fixtureNames, loadFixture } from '../../scripts/fixtures/fixture-files.ts';
import { flowRouteOf } from '../../scripts/fixtures/flow-routes.ts';
import { walkFixture } from '../../scripts/fixtures/walk-fixture.ts';
import { createEngineDriver, engineLookup } from './support/engine-driver.ts';

vi.mock('../../src/ui/browser-navigation.ts', () => ({ leaveTo: vi.fn() }));

const NAME = 'login/wrong-password';

/** The fixture's step `index` (1-based). */
const step = (fixture: Fixture, index: number) => {
  const found = fixture.steps[index - 1];
  if (!found) throw new Error(`${NAME} has no step ${index}`);
  return found;
};

/** Replays `fixture` and resolves with the divergence message (or "no divergence"); `handedOver` is what a browser saw at the end. */
async function divergence(fixture: Fixture, handedOver?: 'code' | 'error'): Promise<string> {
  const engine = await createEngineDriver(fixture);
  // The engine sees no address: a browser's driver reports the callback it reached and what it was handed there.
  const driver = handedOver ? { ...engine, left: async (fromScreen: number) => (await engine.left(fromScreen)) && { path: fixture.end?.path, answer: handedOver } } : engine;
  const lookup = engineLookup();
  try {
    await walkFixture(fixture, { name: NAME, driver, routeOf: flowRouteOf(), value: async (name) => lookup(name), timeoutMs: 1_000 });
    return 'no divergence';
  } catch (error) {
    return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
  }
}

describe('a replay that diverges', () => {
  it('uses a fixture that exists', () => {
    expect(fixtureNames()).toContain(NAME);
  });

  it.each<[string, (fixture: Fixture) => void, string]>([
    [
      'a title',
      (fixture) => (step(fixture, 1).title = 'Sign In'),
      `${NAME}: step 1 (login): expected title "Sign In", saw "Log In"`,
    ],
    [
      'a screen',
      (fixture) => Object.assign(step(fixture, 5), { route: 'error', title: 'Error' }),
      `${NAME}: step 5 (error): expected error "Error", saw mfa/recovery-codes "Authenticate | Save Your Recovery Codes"`,
    ],
    [
      'a message',
      (fixture) => (step(fixture, 2).messages = ['Wrong password.']),
      `${NAME}: step 2 (login): expected messages ["Wrong password."], saw ["Incorrect email or password."]`,
    ],
    [
      'a headline',
      (fixture) => (step(fixture, 2).headline = 'Sign in to go on'),
      `${NAME}: step 2 (login): expected headline "Sign in to go on", saw "Log in to proceed"`,
    ],
    [
      'a request body',
      (fixture) => {
        const login = step(fixture, 1).requests.find((request) => request.path === 'auth/login');
        if (login) login.body = { email: 'someone@else.example', password: '{{encrypted:password}}' };
      },
      `${NAME}: step 1 (login): POST auth/login differs from the recording: body.email: expected "someone@else.example", got "ada@example.com"`,
    ],
    [
      'a request the app sends but the fixture lacks',
      (fixture) => (step(fixture, 2).requests = step(fixture, 2).requests.filter((request) => request.path !== 'crypto/rsa-public-key')),
      `${NAME}: step 2 (login): GET crypto/rsa-public-key was sent more often than recorded`,
    ],
  ])('in %s fails naming the step and the difference', { timeout: 20_000 }, async (_label, edit, message) => {
    const fixture = structuredClone(loadFixture(NAME));
    edit(fixture);
    expect(await divergence(fixture)).toBe(message);
  });

  it('names an error handed to the app where the recording handed it a code', { timeout: 20_000 }, async () => {
    const fixture = loadFixture(NAME);
    expect(fixture.end).toEqual({ path: '/demo/auth/callback', answer: 'code' });
    expect(await divergence(fixture, 'error')).toMatch(/: expected \/demo\/auth\/callback to be handed a code, it was handed error$/);
    expect(await divergence(fixture, 'code')).toBe('no divergence');
  });

  it('does not fail when nothing was edited', { timeout: 20_000 }, async () => {
    expect(await divergence(loadFixture(NAME))).toBe('no divergence');
  });
});
