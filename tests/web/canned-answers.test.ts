// @vitest-environment node
/**
 * The single canned answers the screen tests use (tests/web/fixtures/) are the server's real
 * answers: each equals the one recorded for the same call in a walk fixture, so they cannot drift.
 */
import { describe, expect, it } from 'vitest';
import { loadFixture } from '../../scripts/fixtures/fixture-files.ts';
import { fillDeep, lookupIn, SAMPLE_VALUES } from '../../scripts/fixtures/placeholder-values.ts';
import { fixture } from './support/fixtures.ts';

/** The first answer recorded for `call` ("POST auth/login") with `status` in a walk fixture. */
function recordedAnswer(walk: string, call: string, status: number) {
  const exchange = loadFixture(walk)
    .steps.flatMap((step) => step.requests)
    .find((request) => `${request.method} ${request.path}` === call && request.response.status === status);
  if (!exchange) throw new Error(`${walk} records no ${status} answer to ${call}`);
  return { status, body: fillDeep(exchange.response.body, lookupIn(SAMPLE_VALUES)) };
}

describe('canned answers of the screen tests', () => {
  it.each([
    ['reset-confirmation-invalid-code', 'password-recovery/wrong-code', 'POST password/reset/confirmation', 400],
    ['reset-confirmation-too-many-attempts', 'password-recovery/too-many-tries', 'POST password/reset/confirmation', 429],
    ['reset-confirmation-success', 'password-recovery/happy', 'POST password/reset/confirmation', 200],
    ['login-new-password-required', 'password-recovery/temporary-password', 'POST auth/login', 200],
    ['login-reset-password', 'password-recovery/reset-required', 'POST auth/login', 200],
  ])('%s is what the server answered in %s', (canned, walk, call, status) => {
    const answer = fixture('password-recovery', canned);
    expect({ status: answer.status ?? 200, body: answer.body }).toEqual(recordedAnswer(walk, call, status));
  });
});
