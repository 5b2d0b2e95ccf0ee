/**
 * The fixture validator keeps fixtures replayable on a fresh server: a committed fixture holding a value of the run it
 * was recorded in (a client app's port, its state or PKCE challenge, an interaction id) is refused, naming the
 * placeholder that belongs there; one the walk wrote itself is kept.
 */
import { describe, expect, it } from 'vitest';
import { fixtureProblems } from '../../scripts/fixtures/fixture-files.ts';

/** A one-step fixture that arrived at `query`. */
function arrivedAt(query: Record<string, string>, start: Record<string, string> = {}) {
  return {
    $schema: '../../../../schemas/fixture.schema.json',
    description: 'A walk.',
    start: { path: '/auth/login', query: start },
    steps: [{ arrive: { path: '/auth/login', query }, route: 'login', title: 'Log In', messages: [], requests: [] }],
  };
}

describe('fixtureProblems', () => {
  it('accepts placeholders and the values the walk wrote', () => {
    expect(fixtureProblems(arrivedAt({ redirect_uri: '{{demo}}/demo/auth/callback', state: '{{state}}', code_challenge: '{{codeChallenge}}' }))).toEqual([]);
    expect(fixtureProblems(arrivedAt({ state: 'fixture-state' }, { state: 'fixture-state' }))).toEqual([]);
  });

  it.each([
    ['a client app’s loopback origin', { redirect_uri: 'http://127.0.0.1:45870/demo/auth/callback' }, 'holds a live origin where {{demo}} or {{origin}} belongs: http://127.0.0.1:45870'],
    ['the same origin URL-encoded', { to: 'http%3A%2F%2Flocalhost%3A45870%2Fdemo' }, 'holds a live origin where {{demo}} or {{origin}} belongs: http://localhost:45870'],
    ['a client app’s state', { state: 'MpWIjp1BuAVeqxK6VAnvFCVkiQ4oE6jI3LWZnT1-qno' }, 'holds a live value where {{state}} belongs: "MpWIjp1BuAVeqxK6VAnvFCVk"'],
    ['a PKCE challenge', { code_challenge: 'U8u7Gpwq2E_Mzn1oiTtwAOO0ZiKXkr1EzeIt0K1M2wU' }, 'holds a live value where {{codeChallenge}} belongs: "U8u7Gpwq2E_Mzn1oiTtwAOO0"'],
  ])('refuses %s', (_label, query, problem) => {
    expect(fixtureProblems(arrivedAt(query))).toEqual([problem]);
  });
});
