import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from './support/mfa.ts';
import { openLoginScreen, TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

/** Content types a page on another site can send without a CORS preflight (the "simple" ones), and other non-JSON. */
const NOT_JSON = ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml'];

describe('every state-changing call takes application/json only', () => {
  let server: TestApp;
  let cookie: string;
  beforeAll(async () => {
    server = await startTestApp({ env: { MFA_REQUIRED: 'false' } });
    const browser = new TestBrowser(server.app);
    await openLoginScreen(browser, server.publicClient);
    cookie = browser.jar.header(`${API}/auth/login`);
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(NOT_JSON)('refuses a %s body with 415, before the step runs', async (type) => {
    for (const path of ['/auth/login', '/password/reset', '/register', '/account/profile']) {
      const answer = await server.app.inject({
        method: 'POST',
        url: `${API}${path}`,
        headers: { 'content-type': type, cookie },
        payload: JSON.stringify({ email: server.user.email, password: 'x' }),
      });
      expect(answer.statusCode, `${path}: ${answer.body}`).toBe(415);
      expect(answer.json().error_code).toBe('request.unsupported_media_type');
    }
  });
});
