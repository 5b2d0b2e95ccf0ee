/**
 * The token endpoint spends a refresh token in the statement that stores the tokens issued for it. When a parallel
 * request (perhaps on another instance) spent it between this request's read and its write, the answer already
 * built is dropped for `invalid_grant`, none of its tokens is stored, and the whole family is revoked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/auth/passwords.ts';
import type { Database } from '../../server/db/database.ts';
import { BENCH_PASSWORD, completeLogin, prepareLogins } from '../../bench/support/login-scenario.ts';
import { redeemCodes } from '../../bench/support/refresh-scenario.ts';
import { testBackends, type TestBackend } from './support/databases.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

describe.each(testBackends().filter((backend) => backend.name !== 'pglite-disk'))('a refresh token spent by a parallel request first, on $name', (base) => {
  let server: TestApp;
  /** Set to run a parallel request's spending of every refresh token just before the next write that spends one. */
  let raceNextWrite = false;

  /** `base`, whose next statement spending a token is preceded, when armed, by another request's spending of it. */
  const racing: TestBackend = {
    name: base.name,
    async open(): Promise<Database> {
      const db = await base.open();
      return {
        ...db,
        async query(sql, params) {
          if (raceNextWrite && /^with consumed as/.test(sql)) {
            raceNextWrite = false;
            await db.query("update oidc_payloads set consumed_at = now() where model = 'RefreshToken' and consumed_at is null");
          }
          return db.query(sql, params);
        },
      };
    },
  };

  beforeAll(async () => {
    server = await startTestApp({ backend: racing });
  }, 240_000);
  afterAll(async () => {
    await server?.close();
  });

  it('answers invalid_grant, stores none of the tokens it built, and revokes the family', async () => {
    const [login] = await prepareLogins(server, await hashPassword(BENCH_PASSWORD), 1, { totp: true, prefix: 'race' });
    const { callback } = await completeLogin(login!, server.publicClient.redirectUri);
    const [refreshToken] = await redeemCodes(server, [{ callback, codeVerifier: login!.codeVerifier }]);
    const before = await server.db.query<{ count: number }>("select count(*)::int as count from oidc_payloads where model in ('AccessToken', 'RefreshToken')");
    raceNextWrite = true;
    const response = await server.app.inject({
      method: 'POST',
      url: '/oidc/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ client_id: server.publicClient.clientId, grant_type: 'refresh_token', refresh_token: refreshToken! }).toString(),
    });
    expect(raceNextWrite).toBe(false);
    expect(response.statusCode).toBe(400);
    // oidc-provider's words for any refused grant, a sequential replay's included.
    expect(response.json()).toEqual({ error: 'invalid_grant', error_description: 'grant request is invalid' });
    const after = await server.db.query<{ count: number }>("select count(*)::int as count from oidc_payloads where model in ('AccessToken', 'RefreshToken')");
    expect(before.rows[0]!.count).toBeGreaterThan(0);
    expect(after.rows[0]!.count).toBe(0);
  });
});
