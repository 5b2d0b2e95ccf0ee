/**
 * The demo's fapi2 app (sso-payments), seeded with keys derived from the master key, signs in as the profile asks:
 * PAR, private_key_jwt and DPoP-bound tokens; its page shows the bound token and the userinfo read with a proof.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FAPI2_CLIENT } from '../../server/admin/seed.ts';
import { buildDemoApp } from '../../server/demo/demo-app.ts';
import { CookieJar } from './support/cookie-jar.ts';
import { signInAt } from './support/fapi2-client.ts';
import { injectFetch } from './support/inject-fetch.ts';
import { startTestApp, TEST_DEMO_URL, type TestApp } from './support/test-app.ts';

describe('the demo app of the fapi2 profile', () => {
  let server: TestApp;
  let demo: FastifyInstance;
  const jar = new CookieJar();

  const visit = async (url: string) => {
    const target = new URL(url, TEST_DEMO_URL);
    const response = await demo.inject({ method: 'GET', url: `${target.pathname}${target.search}`, headers: { cookie: jar.header(target.pathname) } });
    jar.store(response.headers['set-cookie']);
    return response;
  };

  beforeAll(async () => {
    server = await startTestApp({ env: { MFA_REQUIRED: 'false' } });
    demo = (await buildDemoApp({ config: server.context.config, db: server.db, box: server.context.box, customFetch: injectFetch(server) }))!;
  }, 180_000);
  afterAll(async () => {
    await demo.close();
    await server.close();
  });

  it('pushes its request, signs in with private_key_jwt and DPoP, and shows the bound token and the userinfo', async () => {
    const start = await visit(`/demo/login?client=${DEMO_FAPI2_CLIENT.clientId}`);
    expect(start.statusCode, start.body).toBe(303);
    const authorization = new URL(String(start.headers.location));
    expect([...authorization.searchParams.keys()].sort()).toEqual(['client_id', 'request_uri']);
    const redirectUri = new URL(DEMO_FAPI2_CLIENT.callbackPath, TEST_DEMO_URL).href;
    const callback = await signInAt(server, authorization, redirectUri);
    const finished = await visit(callback.href);
    expect(finished.statusCode, finished.body).toBe(303);
    const page = (await visit('/demo/')).body;
    expect(page).toContain(`Signed in as <strong>${server.user.email}</strong>`);
    expect(page).toMatch(/data-testid="token-type">dpop</i);
    expect(page).toContain('data-testid="userinfo"');
  });
});
