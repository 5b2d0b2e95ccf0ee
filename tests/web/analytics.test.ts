// @vitest-environment node
/**
 * Tag tracking: only a gtmId from the analytics config loads the tag manager; no id or a failed call keeps
 * tracking off. And nothing personal or secret ever reaches the data layer, even through a whole sign-in.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { track, type DataLayerHost } from '../../src/services/analytics.ts';
import { ApiError, type ApiClient } from '../../src/services/api-client.ts';
import { createFlowController } from '../../src/engine/flow-controller.ts';
import { stepRegistry } from '../../src/engine/step-registry.ts';
import { startTagManager } from '../../src/services/tag-manager.ts';

const answer = (body: unknown, status = 200) => vi.fn(async () => new Response(JSON.stringify(body), { status }));
const URLS = { configUrl: '/api/gaid', tagManagerUrl: 'https://www.googletagmanager.com/gtm.js' };

afterEach(() => {
  delete (globalThis as DataLayerHost).dataLayer;
});

describe('tag manager', () => {
  it('loads Google Tag Manager with the gtmId the analytics config answers', async () => {
    const host: DataLayerHost = {};
    const loadScript = vi.fn(async () => undefined);
    await expect(startTagManager({ ...URLS, host, loadScript, fetch: answer({ data: { gtmId: 'GTM-AB12CD' } }), now: () => 5 })).resolves.toBe(true);
    expect(loadScript).toHaveBeenCalledWith('https://www.googletagmanager.com/gtm.js?id=GTM-AB12CD');
    expect(host.dataLayer).toEqual([{ 'gtm.start': 5, event: 'gtm.js' }]);
  });

  it.each([
    ['the id is absent', answer({ data: { gtmId: null } })],
    ['the id is malformed', answer({ data: { gtmId: 'GTM-"><script>' } })],
    ['the call fails', answer({ error_message: 'down' }, 503)],
    ['the call cannot be made', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch')))],
  ])('keeps tracking off when %s', async (_case, fetch) => {
    const host: DataLayerHost = {};
    const loadScript = vi.fn(async () => undefined);
    await expect(startTagManager({ ...URLS, host, loadScript, fetch })).resolves.toBe(false);
    expect(loadScript).not.toHaveBeenCalled();
    expect(host.dataLayer).toBeUndefined();
  });

  it('turns tracking off again when the script does not load', async () => {
    const host: DataLayerHost = {};
    const loadScript = vi.fn(async () => Promise.reject(new Error('blocked')));
    await expect(startTagManager({ ...URLS, host, loadScript, fetch: answer({ data: { gtmId: 'GTM-AB12CD' } }) })).resolves.toBe(false);
    expect(host.dataLayer).toBeUndefined();
  });
});

describe('what reaches the data layer', () => {
  it('drops events entirely while no tag manager is loaded', async () => {
    const host = globalThis as DataLayerHost;
    await startTagManager({ ...URLS, host, loadScript: async () => undefined, fetch: answer({ data: { gtmId: null } }) });
    track('login_success');
    expect(host.dataLayer).toBeUndefined();
  });

  it('pushes an event as its name alone, and nothing that is not an event name', () => {
    const host = globalThis as DataLayerHost;
    host.dataLayer = [];
    track('login_success');
    track('ann@example.com');
    track('code=123456');
    expect(host.dataLayer).toEqual([{ event: 'login_success' }]);
  });

  it('carries no personal value through a whole sign-in, success and failure', async () => {
    const host = globalThis as DataLayerHost;
    await startTagManager({ ...URLS, host, loadScript: async () => undefined, fetch: answer({ data: { gtmId: 'GTM-AB12CD' } }), now: () => 1 });
    const secrets = ['ann@example.com', 'Secret-Passw0rd!', 'sso-account', 'https://app.example/cb', 'state-xyz', '654321'];
    let fail = false;
    const api: ApiClient = {
      async request<T>(request: { path: string }): Promise<T> {
        if (request.path === 'crypto/rsa-public-key') throw new ApiError('no key in this test');
        if (fail) throw new ApiError('Incorrect username or password.', 400, 'auth.failed');
        return { redirect_to: 'https://app.example/cb?code=654321&state=state-xyz' } as T;
      },
    };
    const controller = createFlowController({ registry: stepRegistry, flags: {}, errorStep: 'error', api, track });
    const login = { ...stepRegistry.get('login'), call: { method: 'POST' as const, path: 'auth/login' } };
    const query = new URLSearchParams('client_id=sso-account&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=state-xyz&username=ann%40example.com');
    await controller.submit(login, { email: 'ann@example.com', password: 'Secret-Passw0rd!' }, query);
    fail = true;
    await controller.submit(login, { email: 'ann@example.com', password: 'Secret-Passw0rd!' }, query);
    expect(host.dataLayer?.map((entry) => entry.event)).toEqual(['gtm.js', 'login_success', 'login_error_response']);
    const sent = JSON.stringify(host.dataLayer);
    expect(secrets.filter((secret) => sent.includes(secret))).toEqual([]);
  });
});
