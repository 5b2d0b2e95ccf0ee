import { describe, expect, it } from 'vitest';
import { SERVER_CHALLENGES } from '../../server/flows/challenges.ts';
import { loadFlowRegistry } from '../../server/flows/flow-registry.ts';

describe("the server's reading of the flows", () => {
  const flows = loadFlowRegistry();

  it.each(Object.values(SERVER_CHALLENGES))('gives the challenge %s that the server can send a step', (challenge) => {
    expect(flows.challenges().has(challenge)).toBe(true);
  });

  it('admits the login call only at the login challenge', () => {
    expect(flows.stepFor('auth/login', SERVER_CHALLENGES.LOGIN_REQUIRED)?.id).toBe('login');
    expect(flows.stepFor('auth/login', SERVER_CHALLENGES.NEW_PASSWORD_REQUIRED)).toBeUndefined();
  });

  it('opens the recovery calls without a transaction, and only those', () => {
    expect(flows.openStepFor('password/reset')).toBeDefined();
    expect(flows.openStepFor('password/reset/confirmation')).toBeDefined();
    expect(flows.openStepFor('auth/login')).toBeUndefined();
    expect(flows.openStepFor('auth/password')).toBeUndefined();
  });
});
