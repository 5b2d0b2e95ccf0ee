// @vitest-environment node
/**
 * The flow controller over the real flow files: entry calls, submits, analytics events, and
 * failures turned into steps.
 */
import { exportJWK, generateKeyPair } from 'jose';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError, type ApiClient, type ApiRequest } from '../../src/services/api-client.ts';
import { createFlowController } from '../../src/engine/flow-controller.ts';
import { stepRegistry } from '../../src/engine/step-registry.ts';
import { fillCallPath, pickQuery } from '../../src/engine/step-call.ts';
import { loadEveryFlow } from './support/every-flow.ts';

type Answer = unknown | ApiError;

/** An API client answering by "METHOD path" and recording requests. */
function fakeApi(answers: Record<string, Answer>): ApiClient & { requests: ApiRequest[] } {
  const requests: ApiRequest[] = [];
  return {
    requests,
    async request<T>(request: ApiRequest): Promise<T> {
      requests.push(request);
      const answer = answers[`${request.method} ${request.path}`];
      if (answer instanceof ApiError) throw answer;
      return answer as T;
    },
  };
}

function controllerWith(answers: Record<string, Answer>) {
  const api = fakeApi(answers);
  const track = vi.fn();
  const controller = createFlowController({ registry: stepRegistry, flags: {}, errorStep: 'error', api, track });
  return { api, track, controller };
}

// The app fetches flow files as their steps show; these tests read every step whole.
await loadEveryFlow();
const login = stepRegistry.get('login');
const query = new URLSearchParams('client_id=c1&redirect_uri=https%3A%2F%2Fapp%2Fcb&state=s&username=u%40x.co&junk=1');

describe('enter', () => {
  it('sends the init call with only the listed page query values', async () => {
    const { api, controller } = controllerWith({ 'GET authorize': { challenge: 'LOGIN_REQUIRED' } });
    await controller.enter(login, query);
    expect(api.requests[0]?.params).toEqual({ client_id: 'c1', redirect_uri: 'https://app/cb', state: 's', username: 'u@x.co' });
  });

  it('stays on the step that claims the answered challenge, keeping its parameters', async () => {
    const { controller } = controllerWith({ 'GET authorize': { challenge: 'LOGIN_REQUIRED', parameters: { client_name: 'App' } } });
    const transition = await controller.enter(login, query);
    expect(transition?.step.id).toBe('login');
    expect(transition?.context.response?.parameters).toEqual({ client_name: 'App' });
  });

  it('follows the redirect rule when the answer has redirect_to', async () => {
    const { controller } = controllerWith({ 'GET authorize': { redirect_to: '/oidc/auth?x=1' } });
    expect((await controller.enter(login, query))?.step.id).toBe('redirect');
  });

  it('turns a failed entry into the error step carrying the server message', async () => {
    const { controller } = controllerWith({ 'GET authorize': new ApiError('Unknown client.', 400, 'client.unknown') });
    const transition = await controller.enter(login, query);
    expect(transition?.step.id).toBe('error');
    expect(transition?.context.error).toBe('Unknown client.');
  });

  it('sends a challenge it has no built step for to the not-available step', async () => {
    const { controller } = controllerWith({ 'GET authorize': { challenge: 'RESEND_OTP' } });
    expect((await controller.enter(login, query))?.step.id).toBe('not-available');
  });

  it('does nothing for a step without init', async () => {
    const { api, controller } = controllerWith({});
    expect(await controller.enter(stepRegistry.get('redirect'), query)).toBeUndefined();
    expect(api.requests).toEqual([]);
  });
});

describe('submit', () => {
  let key: { kid: string; jwk: object; nonce: string };

  beforeAll(async () => {
    const { publicKey } = await generateKeyPair('RSA-OAEP-256');
    key = { kid: 'k', jwk: await exportJWK(publicKey), nonce: 'n' };
  });

  it('stays on the step with the message and fires the error event on failure', async () => {
    const { controller, track } = controllerWith({
      'GET crypto/rsa-public-key': new ApiError('key service down'),
    });
    const transition = await controller.submit(login, { email: 'a@b.co', password: 'x' }, query);
    expect(transition.step.id).toBe('login');
    expect(transition.context.error).toBe('key service down');
    expect(track).toHaveBeenCalledWith('login_error_response');
  });

  it('fires the success event and moves on by the next rules', async () => {
    const { controller, track, api } = controllerWith({
      'GET crypto/rsa-public-key': key,
      'POST auth/login': { redirect_to: 'http://localhost/oidc/auth/uid' },
    });
    const transition = await controller.submit(login, { email: 'a@b.co', password: 'x' }, query);
    expect(api.requests.map((request) => request.path)).toContain('auth/login');
    expect(transition.step.id).toBe('redirect');
    expect(track).toHaveBeenCalledWith('login_success');
  });
});

describe('call helpers', () => {
  it('fills {name} placeholders from values, then parameters, then the query', () => {
    const input = { query: new URLSearchParams('client_id=c%201'), values: { code: '123' }, parameters: { id: 'p' } };
    expect(fillCallPath('clients/{client_id}/x/{code}/{id}', input)).toBe('clients/c%201/x/123/p');
    expect(() => fillCallPath('a/{missing}', input)).toThrow(/missing/);
  });

  it('picks only listed query values that are present', () => {
    expect(pickQuery(['a', 'b'], new URLSearchParams('a=1&c=3'))).toEqual({ a: '1' });
  });
});

describe('a failed sign-in start', () => {
  it('shows the authenticate-initiate message and tracks auth_init_error when authorize cannot be reached', async () => {
    const { controller, track } = controllerWith({ 'GET authorize': new ApiError('Failed to fetch') });
    const transition = await controller.enter(login, query);
    expect(transition?.step.id).toBe('error');
    expect(transition?.context.error).toBe('Authenticate initiate error, please refresh the browser or try again later');
    expect(track).toHaveBeenCalledWith('auth_init_error');
  });

  it("keeps the server's own message when it sent an error code", async () => {
    const { controller, track } = controllerWith({ 'GET authorize': new ApiError('Unknown client.', 400, 'client.unknown') });
    expect((await controller.enter(login, query))?.context.error).toBe('Unknown client.');
    expect(track).toHaveBeenCalledWith('auth_init_error');
  });
});
